#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into fuzz/corpus/<target>/.

The seeds are our own, written from the formats documented in the core's
headers and docs/API.md (no third-party data): a few valid inputs a
target, so that the fuzzer starts from the shapes the parsers accept.
Run it again after changing it; the files are committed.
"""

import base64
import hashlib
import hmac
import json
import os
import shutil

TOP = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(TOP, 'corpus')
NOW = 1767225600            # FUZZ_NOW_MS / 1000 (fuzz.h)
SECRET = b'fuzz_secret_0123456789abcdef'
STD_KEY = b'fuzz-standard-key-bytes!'


def j(o):
    return json.dumps(o, separators=(',', ':'), ensure_ascii=False).encode()


def put(target, seeds):
    d = os.path.join(OUT, target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d, exist_ok=True)
    for i, s in enumerate(seeds):
        if isinstance(s, str):
            s = s.encode()
        with open(os.path.join(d, 'seed-%02d' % i), 'wb') as f:
            f.write(s)


MESSAGES = [
    'I have been waiting three weeks for my refund and nobody answers!!!',
    'Thanks, that fixed it :) great support',
    'you said it was resolved but it is STILL broken',
    'my email is jane.doe@example.com and my card 4111 1111 1111 1111',
    'Je voudrais annuler mon abonnement, merci',
    'I can\'t take this anymore, I want to end it all',
    'sooo frustrated \U0001F621\U0001F621 why is this so hard??',
]


def analyze():
    s = [j({'message': m}) for m in MESSAGES]
    s += [
        j({'message': MESSAGES[2], 'conversation_id': 'conv-42',
           'speaker': 'customer'}),
        j({'text': 'hello', 'conversation_id': 'a.b:c@d_e-f',
           'speaker': 'agent'}),
        j({'message': 'escaped \\"quote\\" \u00e9', 'metadata':
           {'channel': 'chat', 'n': [1, 2.5, None, True]}}),
        b'{"message":"tab\\tand\\u00e9\\ud83d\\ude00","speaker":"agent"}',
        b' {\n "message" : "spaced" ,"conversation_id":"c1"}\n',
        b'{"message":null,"text":"fallback"}',
        b'{"message":"x","conversation_id":""}',
    ]
    put('fuzz_analyze_request', s)


def call_bodies():
    turns = [('user', 'my internet keeps dropping'),
             ('agent', 'I have reset your line, it is fixed now'),
             ('user', 'it is still dropping, this is the third time')]
    el = {'type': 'post_call_transcription', 'event_timestamp': NOW,
          'data': {'conversation_id': 'el-call-1', 'agent_id': 'a1',
                   'transcript': [{'role': r, 'message': t}
                                  for r, t in turns],
                   'analysis': {'call_successful': 'success',
                                'transcript_summary': 'line reset'},
                   'conversation_initiation_client_data': {
                       'dynamic_variables': {
                           'behave_conversation_id': 'conv-el'}}}}
    el_audio = {'type': 'post_call_audio', 'event_timestamp': NOW,
                'data': {'conversation_id': 'el-call-2',
                         'full_audio': 'AAAA'}}
    el_fail = {'type': 'call_initiation_failure', 'event_timestamp': NOW,
               'data': {'conversation_id': 'el-call-3',
                        'failure_reason': 'busy'}}
    rt = {'event': 'call_analyzed',
          'call': {'call_id': 'rt-call-1', 'end_timestamp': NOW * 1000,
                   'transcript_object': [{'role': r, 'content': t}
                                         for r, t in turns],
                   'call_analysis': {'call_successful': False,
                                     'call_summary': 'repeat fault'},
                   'metadata': {'behave_conversation_id': 'conv-rt'}}}
    rt_ended = {'event': 'call_ended',
                'call': {'call_id': 'rt-call-2',
                         'transcript_object': [{'role': 'user',
                                                'content': 'hi'}],
                         'retell_llm_dynamic_variables': {
                             'behave_conversation_id': 'conv-rt2'}}}
    vp = {'message': {'type': 'end-of-call-report',
                      'timestamp': NOW * 1000,
                      'call': {'id': 'vapi-call-1',
                               'metadata': {'behave_conversation_id':
                                            'conv-vp'},
                               'assistantOverrides': {'variableValues': {
                                   'behave_conversation_id': 'x'}}},
                      'artifact': {'messages': [
                          {'role': 'system', 'message': 'be nice'}] + [
                          {'role': 'bot' if r == 'agent' else r,
                           'message': t} for r, t in turns]},
                      'analysis': {'successEvaluation': 'true',
                                   'summary': 'ok'}}}
    vp_other = {'message': {'type': 'status-update',
                            'call': {'id': 'vapi-call-2'}}}
    st = {'type': 'call.transcript', 'timestamp': NOW,
          'data': {'call_id': 'std-call-1', 'conversation_id': 'conv-st',
                   'transcript': [{'speaker': 'customer', 'text': t}
                                  if r == 'user' else
                                  {'role': 'agent', 'message': t}
                                  for r, t in turns],
                   'verdict': 'failure', 'summary': 'repeat'}}
    st_audio = {'type': 'call.audio', 'data': {'call_id': 'std-call-2'}}
    return [(0, el), (0, el_audio), (0, el_fail), (1, rt), (1, rt_ended),
            (2, vp), (2, vp_other), (3, st), (3, st_audio)]


def webhook():
    put('fuzz_webhook', [bytes([p]) + j(b) for p, b in call_bodies()])


def hexmac(key, msg):
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def signature():
    body = j(call_bodies()[0][1])
    t = str(NOW - 60).encode()
    ms = str(NOW * 1000 - 1000).encode()
    absent = b'-'

    # flags, [Vapi options line when flags & 0x80], 11 header lines, body
    def hdrs(flags, h, b=body, opts=None):
        lines = [h.get(i, absent) for i in range(11)]
        head = bytes([flags]) + (opts + b'\n' if opts is not None else b'')
        return head + b'\n'.join(lines) + b'\n' + b

    def std_mac(i):
        return base64.b64encode(hmac.new(
            STD_KEY, i + b'.' + t + b'.' + body, hashlib.sha256).digest())

    vmac = hmac.new(SECRET, body, hashlib.sha256).digest()
    s = [
        # elevenlabs, really signed, and for the harness to sign
        hdrs(0, {0: b't=' + t + b',v0=' + hexmac(SECRET, t + b'.' + body)
                 .encode()}),
        hdrs(8, {0: b't=' + t}),
        hdrs(0, {0: b't=' + t + b',v0=00,v0=zz'}),
        # retell
        hdrs(1, {1: b'v=' + ms + b',d=' + hexmac(SECRET, body + ms)
                 .encode()}),
        hdrs(9, {1: b'v=' + ms}),
        # vapi: HMAC, and the legacy shared secret
        hdrs(2, {2: t, 3: hexmac(SECRET, t + b'.' + body).encode()}),
        hdrs(10, {2: ms}),
        hdrs(6, {4: SECRET}),
        # vapi options from the flags: body alone, base64, sha256= prefix
        hdrs(0x20 | 2, {3: hexmac(SECRET, body).encode()}),
        hdrs(0x70 | 2, {3: b'sha256=' + base64.b64encode(vmac)}),
        hdrs(0x50 | 8 | 2, {2: t}),
        # vapi options in their stored form
        hdrs(0x80 | 2, {3: b'sha256=' + hexmac(SECRET, body).encode()},
             opts=b'v1 x-vapi-signature x-vapi-timestamp hex body '
                  b'p:sha256='),
        hdrs(0x80 | 8 | 2, {2: ms},
             opts=b'v1 x-signature x-timestamp base64 timestamp.body p:'),
        # standard webhooks, and the same under Svix's names
        hdrs(3, {5: b'msg_1', 6: t, 7: b'v1,' + std_mac(b'msg_1')}),
        hdrs(11, {5: b'msg_2', 6: t, 7: b'v1a,abcd'}),
        hdrs(3, {5: b'msg_3', 6: t, 7: b'v1,AAAA v1,' + std_mac(b'msg_3')}),
        hdrs(3, {8: b'msg_4', 9: t, 10: b'v1,' + std_mac(b'msg_4')}),
        hdrs(11, {8: b'msg_5', 9: t}),
        # fuzz_signature's reproducer: a stored Vapi prefix with a NUL,
        # which format could not write back (now refused by the parser)
        b'\x82v1 x-vapaa1ignature x-vap1-times4amp hex body p:sha25\x00'
        b'\x16=9\x00\n-\n-\nsha256=55b3621e\xa59c41060a4b1db74a42d890b60'
        b'a4b1db74a42d890bd5fda9e35ab66853982ff80a9f7dv1 x"call.trans'
        b'\xffript"-vapi-signature x-vapmy inter25881\n-\n-\n-\n-\n-\n-'
        b'\n-\x8a{"type":"post_call_transcriptioon,"""rle":"vgent","meq '
        b'have reset your lii en,t is }}',
    ]
    put('fuzz_signature', s)


def turn_rec(speaker, text, meaning=True, ts=NOW * 1000):
    head = '%s\t%s\t%d\t2\t1\t0\t1\t-0.512\t1a\t' % (
        'b2' if meaning else 'b1', speaker, ts)
    if meaning:
        head += ''.join('%02x' % ((i * 37) & 0xff) for i in range(32)) \
            + '\t'
    return head.encode() + text.encode()


def turn():
    put('fuzz_turn', [
        turn_rec('c', MESSAGES[0]),
        turn_rec('a', 'I have fixed it for you', meaning=False),
        turn_rec('c', 'tabs\tand\nnewlines \u00e9\U0001F600'),
        turn_rec('c', '', meaning=False),
        b'b1\tc\t18446744073709551615\t4\t4\t3\t3\t1.000000\tffffffff\tx',
    ])


def turn_log():
    sep = b'\xff'
    recs = [turn_rec('c', MESSAGES[0]),
            turn_rec('a', 'I have reset your line, it is fixed now', False),
            turn_rec('c', MESSAGES[2])]
    put('fuzz_turn_log', [
        bytes([8]) + sep.join(recs) + sep,
        bytes([2]) + b'd17' + sep + sep.join(recs) + sep,
        bytes([64]) + b'd' + sep + recs[0] + sep + b'garbage' + sep,
        bytes([1]) + b'd99999999999999999999' + sep + recs[1],
    ])


def extract():
    put('fuzz_extract', [
        j({'model': 'm', 'messages': [
            {'role': 'system', 'content': 'be brief'},
            {'role': 'user', 'content': 'first question'},
            {'role': 'assistant', 'content': 'answer'},
            {'role': 'user', 'content': MESSAGES[0]}]}),
        j({'model': 'claude', 'messages': [{'role': 'user', 'content': [
            {'type': 'text', 'text': 'part one'},
            {'type': 'image', 'source': {}},
            {'type': 'text', 'text': 'part two'}]}]}),
        j({'model': 'm', 'input': 'plain responses input'}),
        j({'input': [{'role': 'user', 'content': [
            {'type': 'input_text', 'text': 'responses item'}]}]}),
        j({'message': 'our own'}),
        j({'text': 'also ours'}),
        b'/payload/0/body\n' + j({'payload': [{'body': 'by pointer'}]}),
        b'/a~1b/m~0n\n' + j({'a/b': {'m~n': [{'type': 'text',
                                                 'text': 'escaped'}]}}),
        b'\n' + j({'': 'root'}),
        j({'messages': [
            {'role': 'user', 'content': 'cancel my order 55123'},
            {'role': 'assistant', 'content': None, 'tool_calls': [{}]},
            {'role': 'tool', 'content': '{}'},
            {'role': 'assistant', 'content': [
                {'type': 'text', 'text': "I've cancelled it, you're all set"},
                {'type': 'tool_use', 'id': 't', 'input': {}}]},
            {'role': 'user', 'content': [{'type': 'tool_result'}]},
            {'role': 'user', 'content': "it's still there"},
            {'role': 'assistant', 'content': 'Sure,'}]}),
        j({'input': [
            {'role': 'developer', 'content': 'd'},
            {'role': 'user', 'content': 'I have the pills ready'},
            {'type': 'message', 'role': 'assistant', 'content': [
                {'type': 'output_text', 'text': 'You are not alone.'}]},
            {'type': 'function_call_output', 'output': '{}'},
            {'type': 'message', 'role': 'user', 'content': [
                {'type': 'input_text', 'text': 'ok'}]}]}),
    ])


def redact():
    put('fuzz_redact', [
        'mail me at jane.doe+x@mail.example.co.uk or call +44 20 7946 0958',
        'IBAN GB82 WEST 1234 5698 7654 32 and DE89370400440532013000',
        'NI AB123456C, also AB 12 34 56 C; SSN 123-45-6789 not 000-12-3456',
        'card 4111-1111-1111-1111, 4111111111111112 is an order number',
        'server 192.168.0.1 and 2001:db8::1, version 4.2.1, 1.2.3.4.5',
        'phones (020) 7946 0958, 555-867-5309, 1 555 867 5309, 2024-01-15',
        'caf\u00e9 user@\u00e9xample.com 4111111111111111\U0001F600',
    ])


def tokenize():
    put('fuzz_tokenize', MESSAGES + [
        'WHY is this SOOOO slow?!?! :-( :D <3 xD ^_^ ;)',
        'see https://example.com/a?b=c and @support #refund $100 \u20ac50',
        'don\u2019t won\'t C\'EST \u00c9NORME 3rd 2nd-hand 10x',
        '\u0645\u0631\u062d\u0628\u0627 \u4f60\u597d \U0001F468\u200d'
        '\U0001F469\u200d\U0001F467 \U0001F44D\U0001F3FD',
        b'bad \xff\xfe utf8 \xc0\xaf \xed\xa0\x80 end',
        'a' * 60 + ' ' + 'b' * 100,
    ])


def utf8():
    put('fuzz_utf8', [
        'plain ascii', '\u00e9\u20ac\U0001F600\U0010FFFF',
        b'\xc0\x80', b'\xe0\x80\x80', b'\xed\xa0\x80', b'\xf4\x90\x80\x80',
        b'\xf0\x9f\x98', b'a\x00b', b'\x80\xbf\xfe\xff',
    ])


def lexicon():
    with open(os.path.join(TOP, '..', 'conf', 'lexicon-example.txt'),
              'rb') as f:
        example = f.read()
    put('fuzz_lexicon_ext', [
        example,
        b'\xef\xbb\xbflove\t3\r\nhate\t-3\r\n# c\r\n\r\nnot bad\t2\r\n',
        b'good\t1.9\t0.9434\t[2, 1, 2, 3]\n:)\t2.0\t1.2\t[]\n'
        b'world-class\t3.1\t0.5\t[]\n(-:\t1.6\t0.5\t[]\n',
        b'\xf0\x9f\x98\xa0\t-4\nsooo good\t4\na.m.\t0\n',
        b'one two three four five six seven\t1\n',
    ])


def gateway():
    sig = {'signals': {'voice': {'pitch_hz': 260, 'pitch_variability': 0.4,
                                 'energy_db': 82, 'speech_rate_wpm': 210,
                                 'pause_ratio': 0.1, 'baseline_pitch_hz':
                                 180},
                       'visual': {'expressions': {'angry': 0.8,
                                                  'neutral': 0.2},
                                  'face_confidence': 0.9, 'blink_rate': 20},
                       'semantic': {'text': 'this is ridiculous'}},
           'timestamp': NOW * 1000}
    calm = [{'type': 'keystroke', 't': 1000 + 150 * i} for i in range(20)]
    hes = calm + [e for i in range(6) for e in (
        {'type': 'pause', 't': 5000 + 4000 * i, 'duration': 3500},
        {'type': 'backspace', 't': 5100 + 4000 * i})]
    hes += [{'type': 'click', 't': 40000 + i * 100, 'target': 'buy'}
            for i in range(4)]
    hes += [{'type': 'scroll', 't': 41000, 'delta': 300},
            {'type': 'scroll', 't': 41200, 'delta': -300},
            {'type': 'hover', 't': 42000, 'duration': 5000,
             'target': 'help'},
            {'type': 'blur', 't': 43000}, {'type': 'focus', 't': 80000},
            {'type': 'error', 't': 81000}, {'type': 'submit', 't': 90000}]
    beh = {'session_id': 's-1', 'interaction_history': hes,
           'fuzz_prior': calm[:5], 'context': {'step': 2, 'total_steps': 5}}
    ada = {'behavioral_data': {'cognitive_friction': 0.9,
                               'hesitation_score': 0.8, 'rage_clicks': 3},
           'user_profile': {'expertise': 'novice', 'locale': 'ar',
                            'accessibility_needs': ['screen_reader',
                                                    'reduced_motion']},
           'current_state': {'emotional_state': 'frustrated',
                             'cognitive_load': 'high',
                             'attention_span': 'low'},
           'components': ['form', 'navigation', 'help']}
    orc = {'query': 'Summarise this contract clause for me.',
           'latency_limit': 400, 'cost_constraint': 0.01,
           'required_capabilities': ['json'], 'quality': 'premium',
           'user_data': {'emotional_state': 'calm'}}
    put('fuzz_gateway', [b'\x00' + j(sig), b'\x01' + j(beh),
                         b'\x02' + j(ada), b'\x03' + j(orc),
                         b'\x03' + j({'query': 'x', 'latency_limit': 1}),
                         b'\x00' + b'{"signals":{}}'])


def catalog():
    with open(os.path.join(TOP, '..', 'conf', 'models.json'), 'rb') as f:
        example = f.read()
    one = {'id': 'm', 'provider': 'p', 'p50_latency_ms': 300,
           'cost_per_1k_input': 0.001, 'cost_per_1k_output': 0.002,
           'context_window': 8192, 'quality_tier': 'standard',
           'capabilities': ['chat']}
    put('fuzz_gw_catalog', [example, j([one]), j({'models': [one, dict(
        one, id='n', quality_tier=5, capabilities=[])]})])


def keys():
    h = hashlib.sha256(b'bk_test_analyze_0123456789abcdef').hexdigest()
    put('fuzz_keys', [
        b'\x00' + ('%s acme analyze 0' % h).encode(),
        b'\x00' + ('%s  globex analyze,gateway,portal 1000\r' % h).encode(),
        b'\x00# comment', b'\x00',
        b'\x01Bearer bk_test_analyze_0123456789abcdef',
        b'\x01bearer   tok', b'\x02' + b'0f' * 32 + b'\n',
        b'\x02' + b'00' * 32,
        b'\x03v1:' + base64.b64encode(bytes(range(48))),
    ])


def jsons():
    put('fuzz_json', [
        j({'a': [1, -2.5, 1e-7, 123456789012345678, True, False, None],
           'b': {'c': 'str\u00e9\U0001F600\n\t"\\/'}}),
        b'[0.1,0.30000000000000004,1e308,-0,5e-324]',
        b'{"message":"x"}', b'"\\u0000\\ud83d\\ude00"',
    ])


def main():
    # fuzz_conv_state's seeds are states the fuzzer found to decode
    # (kept: written by the fuzzer, not here)
    for f in (analyze, webhook, signature, turn, turn_log, extract, redact,
              tokenize, utf8, lexicon, gateway, catalog, keys, jsons):
        f()


if __name__ == '__main__':
    main()
