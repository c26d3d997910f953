/**
 * Styled runs → a markup of nested tags (Telegram's HTML, BBCode): tags properly nested,
 * opened where a mark starts and closed where it ends, text escaped by the markup.
 * Every call produces a complete, balanced message.
 */
import type { MarkupSyntax } from './markup.js';
import { commonDepth, type Mark, type Run } from './styled.js';

export function serializeNested(runs: readonly Run[], syntax: MarkupSyntax): string {
  let out = '';
  let open: readonly Mark[] = [];
  for (const run of runs) {
    if (!run.text) continue;
    const keep = commonDepth(open, run.marks);
    for (let i = open.length - 1; i >= keep; i--) out += syntax.close(open[i] as Mark);
    for (let i = keep; i < run.marks.length; i++) out += syntax.open(run.marks[i] as Mark);
    out += run.verbatim ? run.text : syntax.escape(run.text);
    open = run.marks;
  }
  for (let i = open.length - 1; i >= 0; i--) out += syntax.close(open[i] as Mark);
  return out;
}
