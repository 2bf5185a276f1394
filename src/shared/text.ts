import * as v from 'valibot';
import { GENERIC } from './messages.ts';

// Free text people type (names, descriptions, reasons, messages, ticket text): no control character
// and no lone surrogate. A control character is invisible and can break what the text goes into (a
// mail header, a CSV line, a log line); NUL cannot be stored by PostgreSQL at all. A lone surrogate is
// half of a character: UTF-8 has no encoding for it, so it would be stored as something else.

/** One line: no control character at all. */
const ONE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;
/** Several lines: line feeds and tabs, but no other control character (no CR, no NUL). */
const MULTI_LINE = /^(?:[\n\t]|[^\p{Cc}\p{Cs}])*$/u;

/** The check for text on one line, with the field's own message or the generic one. */
export const oneLineText = (message: string = GENERIC.textCharacters) => v.regex(ONE_LINE, message);

/** The check for text of several lines (\n and \t kept), with the field's own message or the generic one. */
export const multiLineText = (message: string = GENERIC.textCharacters) => v.regex(MULTI_LINE, message);
