#!/usr/bin/env node
// Checks real answers of the module against docs/openapi.yaml.
//
//   node validate.js OPENAPI.yaml CASES.json
//
// CASES.json: [{"name", "method", "path" (as in the document's paths),
// "status", "content_type", "body" (the raw text)}].  Prints one line a
// case, "ok NAME" or "not ok NAME: why", and exits 1 if any failed.
// The schemas are JSON Schema 2020-12 (OpenAPI 3.1's dialect), compiled
// with ajv; $refs resolve inside the document.

'use strict';

const fs = require('fs');
const YAML = require('yaml');
const Ajv2020 = require('ajv/dist/2020');
const addFormats = require('ajv-formats');

const [docFile, casesFile] = process.argv.slice(2);
if (!docFile || !casesFile) {
    console.error('usage: validate.js OPENAPI.yaml CASES.json');
    process.exit(2);
}

const doc = YAML.parse(fs.readFileSync(docFile, 'utf8'));
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'));
const ID = 'https://behave.invalid/openapi';

// strict off: the document also holds OpenAPI's own keywords
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, ID);

const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

// the JSON pointer of a response's JSON schema, following a $ref
function schemaPointer(c) {
    const item = doc.paths[c.path] || {};
    let method = c.method.toLowerCase();

    // a method the path does not have: its 405, as any operation gives it
    if (!item[method] && Number(c.status) === 405) {
        method = ['get', 'post', 'patch', 'put', 'delete'].find((m) => item[m]);
    }

    const op = item[method];
    if (!op) {
        return [null, `no operation ${c.method} ${c.path}`];
    }
    let resp = op.responses[String(c.status)];
    let ptr = `#/paths/${esc(c.path)}/${method}/responses/${c.status}`;
    if (!resp) {
        return [null, `status ${c.status} is not documented`];
    }
    if (resp.$ref) {
        ptr = resp.$ref;
        resp = resp.$ref.split('/').slice(1).reduce((o, k) => o[k], doc);
    }
    const ct = (c.content_type || '').split(';')[0].trim();
    if (!resp.content || !resp.content[ct]) {
        return [null, `content type "${ct}" is not documented for ${c.status}`];
    }
    return [`${ptr}/content/${esc(ct)}/schema`, null];
}

let failed = 0;

for (const c of cases) {
    const [ptr, why] = schemaPointer(c);
    let problem = why;

    if (!problem) {
        let value;
        try {
            value = c.content_type.startsWith('application/json')
                ? JSON.parse(c.body) : c.body;
        } catch (e) {
            problem = `the body is not JSON: ${e.message}`;
        }
        if (!problem) {
            const validate = ajv.getSchema(ID + ptr);
            if (!validate) {
                problem = `no schema at ${ptr}`;
            } else if (!validate(value)) {
                problem = ajv.errorsText(validate.errors, { separator: '; ' });
            }
        }
    }

    if (problem) {
        failed++;
        console.log(`not ok ${c.name}: ${problem}`);
    } else {
        console.log(`ok ${c.name}`);
    }
}

process.exit(failed ? 1 : 0);
