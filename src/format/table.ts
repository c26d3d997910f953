/**
 * A GFM table as aligned monospace text. No chat platform renders tables, and a
 * code block of aligned columns reads better on a phone than pipes and dashes.
 */
import type { Inline, TableAlign } from './ir.js';

export function inlinePlainText(inlines: readonly Inline[]): string {
  let text = '';
  for (const node of inlines) {
    switch (node.kind) {
      case 'text':
      case 'code':
        text += node.text;
        break;
      case 'break':
        text += ' ';
        break;
      default:
        text += inlinePlainText(node.children);
    }
  }
  return text;
}

export function tableToText(align: readonly TableAlign[], header: Inline[][], rows: Inline[][][]): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => inlinePlainText(cell).replace(/\s+/g, ' ').trim()));
  const columns = Math.max(...cells.map((row) => row.length));
  const widths: number[] = [];
  for (let c = 0; c < columns; c++) widths.push(Math.max(...cells.map((row) => (row[c] ?? '').length)));

  const line = (row: string[]): string =>
    widths
      .map((width, c) => pad(row[c] ?? '', width, align[c] ?? null))
      .join(' | ')
      .trimEnd();
  const [head, ...body] = cells;
  const rule = widths.map((w) => '-'.repeat(Math.max(w, 1))).join('-+-');
  return [line(head ?? []), rule, ...body.map(line)].join('\n');
}

function pad(text: string, width: number, align: TableAlign): string {
  const gap = width - text.length;
  if (gap <= 0) return text;
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') {
    const left = Math.floor(gap / 2);
    return ' '.repeat(left) + text + ' '.repeat(gap - left);
  }
  return text + ' '.repeat(gap);
}
