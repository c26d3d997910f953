/**
 * Styled text: the laid-out answer as a flat list of runs, each a piece of
 * visible text with the formatting marks around it (outermost first). Splitting
 * works on this form, so a cut can never land inside a tag, an entity or a
 * marker: every chunk is serialized on its own and closes what it opened.
 */

export type Mark =
  | { kind: 'bold' }
  | { kind: 'italic' }
  | { kind: 'strike' }
  | { kind: 'code' }
  | { kind: 'pre'; lang: string | undefined }
  | { kind: 'link'; href: string }
  | { kind: 'quote' };

export interface Run {
  text: string;
  /** Outermost first; a run's marks never contain two marks of one kind. */
  marks: readonly Mark[];
  /** Markup written by the layout (Slack's "> " quote prefix): counted, never escaped. */
  verbatim?: boolean;
}

export const BOLD: Mark = { kind: 'bold' };
export const ITALIC: Mark = { kind: 'italic' };
export const STRIKE: Mark = { kind: 'strike' };
export const CODE: Mark = { kind: 'code' };
export const QUOTE: Mark = { kind: 'quote' };

export function sameMark(a: Mark, b: Mark): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'pre' && b.kind === 'pre') return a.lang === b.lang;
  if (a.kind === 'link' && b.kind === 'link') return a.href === b.href;
  return true;
}

/** How many leading marks two runs share, i.e. how deep the open tags can stay open. */
export function commonDepth(a: readonly Mark[], b: readonly Mark[]): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && sameMark(a[i] as Mark, b[i] as Mark)) i++;
  return i;
}

export function hasMark(marks: readonly Mark[], kind: Mark['kind']): boolean {
  return marks.some((m) => m.kind === kind);
}

/** Inside code or a code block, where text is literal. */
export function isLiteral(marks: readonly Mark[]): boolean {
  return marks.some((m) => m.kind === 'code' || m.kind === 'pre');
}

export function visibleText(runs: readonly Run[]): string {
  let text = '';
  for (const run of runs) text += run.text;
  return text;
}
