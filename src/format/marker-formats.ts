/**
 * Styled runs → the marker-based formats: Slack mrkdwn, WhatsApp, plain text.
 * These formats only recognise a marker next to a word (`*bold*`, not `* bold*`),
 * so whitespace at the edge of a styled run is moved outside its markers.
 */
import { commonDepth, isLiteral, type Mark, type Run } from './styled.js';

interface MarkerStyle {
  escape(text: string): string;
  open(mark: Mark): string;
  close(mark: Mark): string;
}

const EMPHASIS_MARKERS: Partial<Record<Mark['kind'], string>> = {
  bold: '*', italic: '_', strike: '~', code: '`', pre: '```',
};

function escapeSlackText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** `|` and `>` would end Slack's <url|text> early, so they are percent-encoded. */
function escapeSlackUrl(url: string): string {
  return url.replace(/[&<>|]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '%3C' : c === '>' ? '%3E' : '%7C'));
}

const SLACK: MarkerStyle = {
  escape: escapeSlackText,
  open: (mark) => (mark.kind === 'link' ? `<${escapeSlackUrl(mark.href)}|` : EMPHASIS_MARKERS[mark.kind] ?? ''),
  close: (mark) => (mark.kind === 'link' ? '>' : EMPHASIS_MARKERS[mark.kind] ?? ''),
};

// WhatsApp has no escape character and no link syntax (layout wrote links out).
const WHATSAPP: MarkerStyle = {
  escape: (text) => text,
  open: (mark) => EMPHASIS_MARKERS[mark.kind] ?? '',
  close: (mark) => EMPHASIS_MARKERS[mark.kind] ?? '',
};

const PLAIN: MarkerStyle = { escape: (text) => text, open: () => '', close: () => '' };

export const MARKER_STYLES = { 'slack-mrkdwn': SLACK, whatsapp: WHATSAPP, plain: PLAIN } as const;

const LEADING_SPACE = /^\s+/;
const TRAILING_SPACE = /\s+$/;

export function runsToMarkers(runs: readonly Run[], style: MarkerStyle): string {
  let out = '';
  let pendingSpace = '';
  let open: readonly Mark[] = [];
  const closeTo = (depth: number): void => {
    for (let i = open.length - 1; i >= depth; i--) out += style.close(open[i] as Mark);
    open = open.slice(0, depth);
  };

  for (const run of runs) {
    if (!run.text) continue;
    let text = run.verbatim ? run.text : style.escape(run.text);
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
      for (let i = keep; i < run.marks.length; i++) out += style.open(run.marks[i] as Mark);
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
