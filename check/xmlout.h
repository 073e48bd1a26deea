/*
 * check/xmlout.h: the XML report of `ptxemu sanitize --format xml`.
 * The tools write JSON Lines records (check/report.h); SanOut buffers
 * them and this file turns each into one XML element, so the two
 * formats carry the same fields by construction.
 *
 * Schema (also in the README):
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <sanitize version="1">
 *     <error> one per record: a member "k" is a child element <k>; a
 *       string or number is its text, an object its child elements, an
 *       array <item> children in order </error>
 *     <summary><errors>N</errors><printed>M</printed></summary>
 *   </sanitize>
 * Text is escaped (& < > "), control characters and bytes that are not
 * UTF-8 become '?'.
 *
 * Contract.
 *  - san_xml_records() converts the complete lines of buf[0..len) and
 *    returns how many bytes it consumed (a partial last line is left).
 *    A line that is not a JSON object becomes an XML comment saying so
 *    (never ill-formed output).
 */
#ifndef PTXEMU_CHECK_XMLOUT_H
#define PTXEMU_CHECK_XMLOUT_H

#include <stddef.h>
#include <stdio.h>

void san_xml_begin(FILE *out);
size_t san_xml_records(FILE *out, const char *buf, size_t len);
void san_xml_end(FILE *out);

#endif
