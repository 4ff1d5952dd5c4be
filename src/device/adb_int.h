/* adb_int.h - what adb.c and adb_list.c share; nothing outside
 * src/device/adb*.c includes it. */
#ifndef AMC_ADB_INT_H
#define AMC_ADB_INT_H

#include <stddef.h>

/* Bounds on what one adb call may print (text) and on its error output. */
#define ADB_MAX_TEXT (4u * 1024u * 1024u)
#define ADB_MAX_ERR (64u * 1024u)

/* First line of a program's message, bounded to 200 bytes and terminal-safe,
 * into out (n bytes). */
void amc_adb_first_line(const char *s, char *out, size_t n);

/* 1 when `s` can name an app or activity for am/pm: letters, digits and
 * . _ / $, not starting with '-', at most 255 bytes. */
int amc_adb_app_id_valid(const char *s);

#endif
