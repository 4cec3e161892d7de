/**
 * A minimal terminal screen: applies text, `\r`, `\n`, cursor-up (`ESC[nA`), erase-below (`ESC[J`),
 * and ignores colours and cursor visibility. Enough to check what a live renderer leaves on screen.
 */
export function createVirtualTerminal() {
  const screen: string[] = [''];
  let row = 0;
  let column = 0;
  let raw = '';
  const write = (text: string) => {
    raw += text;
    const pattern = /\u001b\[(\??[\d;]*)([A-Za-z])|\r|\n|[^\u001b\r\n]+/g;
    for (const match of text.matchAll(pattern)) {
      const token = match[0];
      if (token === '\r') column = 0;
      else if (token === '\n') {
        row += 1;
        column = 0;
        if (screen[row] === undefined) screen[row] = '';
      } else if (token.startsWith('\u001b[')) {
        const [, parameter = '', command] = match;
        if (command === 'A') row = Math.max(0, row - Number(parameter || '1'));
        else if (command === 'J') {
          screen[row] = (screen[row] ?? '').slice(0, column);
          screen.length = row + 1;
        }
      } else {
        const line = screen[row] ?? '';
        screen[row] = line.slice(0, column).padEnd(column) + token + line.slice(column + token.length);
        column += token.length;
      }
    }
    return true;
  };
  return { isTTY: true, columns: 100, write, screen: () => screen.join('\n'), raw: () => raw };
}
