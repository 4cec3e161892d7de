/** C0 and C1 control characters and DEL: escape sequences a terminal would act on. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROL_EXCEPT_NEWLINE_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from the model, a tool or the web made safe to print as one line: control characters (an
 * escape sequence in a page title or a file name) removed, line breaks and runs of white space made
 * one space, and clipped to `max` characters.
 */
export function oneLine(text: string, max = 240): string {
  const line = text.replace(/[\t\n\r\v\f]+/g, ' ').replace(CONTROL, '').replace(/ {2,}/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Streamed text made safe to print: line breaks and tabs kept, every other control character removed. */
export function printableText(text: string): string {
  return text.replace(CONTROL_EXCEPT_NEWLINE_TAB, '');
}
