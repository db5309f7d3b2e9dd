/** ANSI styling that collapses to plain text when colors are off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;

const COLORS: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
};

const identity = (text: string) => text;
const PLAIN: Style = {
  bold: identity,
  dim: identity,
  red: identity,
  yellow: identity,
  green: identity,
};

export function createStyle(color: boolean): Style {
  return color ? COLORS : PLAIN;
}
