/**
 * Styled runs → a markup of markers (Slack mrkdwn, WhatsApp). Such a markup only
 * recognises a marker next to a word (`*bold*`, not `* bold*`), so whitespace at the
 * edge of a styled run is moved outside its markers, and no markers are written around
 * nothing but spaces.
 */
import type { MarkupSyntax } from './markup.js';
import { commonDepth, isLiteral, type Mark, type Run } from './styled.js';

const LEADING_SPACE = /^\s+/;
const TRAILING_SPACE = /\s+$/;

export function serializeMarkers(runs: readonly Run[], syntax: MarkupSyntax): string {
  let out = '';
  let pendingSpace = '';
  let open: readonly Mark[] = [];
  const closeTo = (depth: number): void => {
    for (let i = open.length - 1; i >= depth; i--) out += syntax.close(open[i] as Mark);
    open = open.slice(0, depth);
  };

  for (const run of runs) {
    if (!run.text) continue;
    let text = run.verbatim ? run.text : syntax.escape(run.text);
    const literal = isLiteral(run.marks);
    const keep = commonDepth(open, run.marks);
    closeTo(keep);
    if (!literal && text.trim() === '') {
      // Opening markers around nothing but spaces would leave them stray.
      pendingSpace += text;
      continue;
    }
    if (run.marks.length > keep) {
      if (!literal) {
        const lead = LEADING_SPACE.exec(text)?.[0] ?? '';
        pendingSpace += lead;
        text = text.slice(lead.length);
      }
      out += pendingSpace;
      pendingSpace = '';
      for (let i = keep; i < run.marks.length; i++) out += syntax.open(run.marks[i] as Mark);
    } else {
      out += pendingSpace;
      pendingSpace = '';
    }
    if (!literal) {
      const trail = TRAILING_SPACE.exec(text)?.[0] ?? '';
      pendingSpace = trail;
      text = text.slice(0, text.length - trail.length);
    }
    out += text;
    open = run.marks;
  }
  closeTo(0);
  return out + pendingSpace;
}
