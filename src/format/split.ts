/**
 * Splits laid-out runs into messages that each fit the platform's limit and are
 * valid on their own. Cuts are chosen on the visible text, never on the rendered
 * string, so a tag, an entity or a marker can never be cut in two: each chunk is
 * serialized separately, closing what is open at its end and reopening it (code
 * block language included) at the start of the next.
 *
 * Preferred cut points: paragraph break, line break, sentence end, space, and
 * only then a hard cut (never between the halves of a surrogate pair).
 */
import { hasMark, type Mark, type Run } from './styled.js';

export interface ChunkRenderer {
  serialize(runs: readonly Run[]): string;
  /** Length of a serialized chunk as the platform counts it. */
  measure(serialized: string, runs: readonly Run[]): number;
  /** True when `measure` is just the visible text length (lets the splitter skip a search). */
  measuresVisibleText: boolean;
}

/** Share of the window a preferred cut must fill, so chunks do not come out tiny. */
const MIN_FILL_AT_LINE_BREAK = 0.3;
const MIN_FILL_AT_WORD_BREAK = 0.5;

/**
 * Last resorts when a chunk's markup alone would not fit (say a Slack link whose
 * URL is longer than the limit): drop link targets, then all formatting.
 */
const DEGRADE_LEVELS = [
  (runs: readonly Run[]): readonly Run[] => runs,
  (runs: readonly Run[]): readonly Run[] =>
    runs.map((r) => ({ ...r, marks: r.marks.filter((m) => m.kind !== 'link') })),
  (runs: readonly Run[]): readonly Run[] => runs.map((r) => ({ ...r, marks: [] as Mark[] })),
] as const;

export function splitRuns(runs: readonly Run[], maxLength: number, renderer: ChunkRenderer): string[] {
  return splitRunsFrom(runs, 0, maxLength, renderer).map((piece) => piece.text);
}

/** A chunk, and the part of the runs' visible text it shows: [from, to). */
export interface SplitPiece {
  text: string;
  from: number;
  to: number;
}

/**
 * splitRuns for the visible text from `from` on (the part before it is shown elsewhere):
 * the first chunk opens again whatever marks are open at `from` (bold, a code block
 * with its language), so it is valid on its own.
 */
export function splitRunsFrom(
  runs: readonly Run[],
  from: number,
  maxLength: number,
  renderer: ChunkRenderer,
): SplitPiece[] {
  const text = new RunText(runs);
  const chunks: SplitPiece[] = [];
  let start = text.skipLeadingSpace(Math.max(0, from));
  while (start < text.length) {
    const end = text.trimEnd(start, text.length);
    if (end <= start) break;
    const whole = renderer.serialize(text.slice(start, end));
    if (renderer.measure(whole, text.slice(start, end)) <= maxLength) {
      chunks.push({ text: whole, from: start, to: end });
      break;
    }
    const level = DEGRADE_LEVELS.findIndex((degrade) =>
      fits(start, Math.min(end, text.safeCut(start + 1, start)), degrade),
    );
    const degrade = DEGRADE_LEVELS[level === -1 ? DEGRADE_LEVELS.length - 1 : level] as (typeof DEGRADE_LEVELS)[number];
    const limit = widestFit(start, end, degrade);
    let cut = chooseCut(text.visible, start, limit);
    let pieceEnd = text.trimEnd(start, cut.end);
    if (pieceEnd <= start || !fits(start, pieceEnd, degrade)) {
      cut = { end: limit, next: limit };
      pieceEnd = text.trimEnd(start, limit);
    }
    if (pieceEnd > start)
      chunks.push({ text: renderer.serialize(degrade(text.slice(start, pieceEnd))), from: start, to: pieceEnd });
    start = text.skipLeadingSpace(Math.max(cut.next, start + 1));
  }
  return chunks;

  function fits(from: number, to: number, degrade: (typeof DEGRADE_LEVELS)[number]): boolean {
    const runsOfChunk = degrade(text.slice(from, text.trimEnd(from, to)));
    return renderer.measure(renderer.serialize(runsOfChunk), runsOfChunk) <= maxLength;
  }

  /** The furthest end (exclusive) such that [from, end) still fits. */
  function widestFit(from: number, to: number, degrade: (typeof DEGRADE_LEVELS)[number]): number {
    let low = Math.min(to, text.safeCut(from + 1, from));
    let high = Math.min(to, from + maxLength);
    if (renderer.measuresVisibleText) return Math.max(low, text.safeCut(high, from));
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(from, mid, degrade)) low = mid;
      else high = mid - 1;
    }
    return Math.max(Math.min(to, text.safeCut(from + 1, from)), text.safeCut(low, from));
  }
}

interface Cut {
  /** Where the chunk ends (exclusive). */
  end: number;
  /** Where the next chunk starts (before skipping whitespace). */
  next: number;
}

function chooseCut(visible: string, start: number, limit: number): Cut {
  const window = limit - start;
  const lineFloor = start + Math.max(1, Math.floor(window * MIN_FILL_AT_LINE_BREAK));
  const wordFloor = start + Math.max(1, Math.floor(window * MIN_FILL_AT_WORD_BREAK));

  const paragraph = visible.lastIndexOf('\n\n', limit);
  if (paragraph >= lineFloor) return { end: paragraph, next: paragraph + 2 };
  const line = visible.lastIndexOf('\n', limit);
  if (line >= lineFloor) return { end: line, next: line + 1 };
  for (let i = Math.min(limit, visible.length - 1) - 1; i >= wordFloor - 1; i--) {
    if (isSentenceEnd(visible.charCodeAt(i)) && isSpace(visible.charCodeAt(i + 1))) return { end: i + 1, next: i + 1 };
  }
  for (let i = Math.min(limit, visible.length - 1); i >= wordFloor; i--) {
    const c = visible.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return { end: i, next: i + 1 };
  }
  return { end: limit, next: limit };
}

function isSentenceEnd(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f || code === 0x2026; // . ! ? …
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0xa0;
}

/** The visible text of the runs, with run boundaries, so positions map back to styled slices. */
class RunText {
  readonly visible: string;
  private readonly starts: number[] = [];

  constructor(private readonly runs: readonly Run[]) {
    let visible = '';
    for (const run of runs) {
      this.starts.push(visible.length);
      visible += run.text;
    }
    this.visible = visible;
  }

  get length(): number {
    return this.visible.length;
  }

  slice(from: number, to: number): Run[] {
    const out: Run[] = [];
    for (let i = this.runIndexAt(from); i < this.runs.length; i++) {
      const runStart = this.starts[i] as number;
      if (runStart >= to) break;
      const run = this.runs[i] as Run;
      const piece = run.text.slice(Math.max(0, from - runStart), Math.min(run.text.length, to - runStart));
      if (piece) out.push({ ...run, text: piece });
    }
    return out;
  }

  /** Moves `end` back over whitespace, so a chunk never ends with a blank line. */
  trimEnd(from: number, end: number): number {
    while (end > from && isSpace(this.visible.charCodeAt(end - 1))) end--;
    return end;
  }

  /** Skips whitespace at a chunk start, but keeps the indentation of a code line. */
  skipLeadingSpace(position: number): number {
    while (position < this.visible.length && isSpace(this.visible.charCodeAt(position))) {
      const c = this.visible.charCodeAt(position);
      if (c !== 0x0a && c !== 0x0d && this.inCodeBlock(position)) break;
      position++;
    }
    return position;
  }

  /** `position`, or one less when it would split a surrogate pair (but never back to `floor`). */
  safeCut(position: number, floor: number): number {
    const before = this.visible.charCodeAt(position - 1);
    if (position < this.visible.length && before >= 0xd800 && before <= 0xdbff && position - 1 > floor)
      return position - 1;
    if (position < this.visible.length && before >= 0xd800 && before <= 0xdbff) return position + 1;
    return position;
  }

  private inCodeBlock(position: number): boolean {
    const run = this.runs[this.runIndexAt(position)];
    return run !== undefined && hasMark(run.marks, 'pre');
  }

  private runIndexAt(position: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if ((this.starts[mid] as number) <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
