/*
 * Redis Cluster hash slots: the values redis-cli's CLUSTER KEYSLOT gives.
 */

#include <string.h>

#include "tap.h"

#include "base/behave_slot.h"


#define slot(s)  behave_key_slot(s, strlen(s))


int
main(void)
{
    /* CRC16 XMODEM check value: "123456789" -> 0x31C3 */
    is_int(slot("123456789"), 0x31C3 & 16383, "check value");
    is_int(slot("foo"), 12182, "foo");
    is_int(slot("bar"), 5061, "bar");
    is_int(slot(""), 0, "empty key");
    is_int(slot("{user1000}.following"), slot("user1000"), "hash tag");
    is_int(slot("{user1000}.followers"), slot("{user1000}.following"),
           "same tag, same slot");
    is_int(slot("foo{}{bar}"), slot("foo{}{bar}"), "empty tag: whole key");
    ok(slot("foo{}{bar}") != slot("bar"), "empty first tag is no tag");
    is_int(slot("foo{{bar}}zap"), slot("{bar"), "tag up to the first }");
    is_int(slot("foo{bar}{zap}"), slot("bar"), "first tag only");
    is_int(slot("behave:{acme:c1}:log"), slot("acme:c1"),
           "conversation key");
    is_int(slot("behave:wh:slug:abc"), slot("behave:wh:slug:abc"),
           "untagged key");

    return tap_done();
}
