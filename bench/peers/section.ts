/**
 * The peers benchmark owns one section of BENCHMARKS.md, from its heading to the
 * next `## ` heading or the end. bench/run.ts rewrites the rest of the file and
 * carries this section over with `keepPeersSection`.
 */
export const PEERS_HEADING = '## Side by side with the peers';

/** The section in `markdown` (heading included, ending with one newline), or undefined. */
export function peersSection(markdown: string): string | undefined {
  const start = markdown.indexOf(`${PEERS_HEADING}\n`);
  if (start < 0) return undefined;
  const next = markdown.indexOf('\n## ', start + PEERS_HEADING.length);
  return `${markdown.slice(start, next < 0 ? undefined : next + 1).trimEnd()}\n`;
}

/** `markdown` with its peers section replaced by `section`, or `section` appended. */
export function replacePeersSection(markdown: string, section: string): string {
  const old = peersSection(markdown);
  if (old === undefined) return `${markdown.trimEnd()}\n\n${section.trimEnd()}\n`;
  const start = markdown.indexOf(old.trimEnd());
  return (
    `${markdown.slice(0, start)}${section.trimEnd()}\n${markdown.slice(start + old.trimEnd().length).replace(/^\n*/, '\n')}`.trimEnd() +
    '\n'
  );
}

/** A freshly written BENCHMARKS.md keeps the peers section of the file it replaces. */
export function keepPeersSection(previous: string | undefined, next: string): string {
  const section = previous === undefined ? undefined : peersSection(previous);
  return section === undefined ? next : replacePeersSection(next, section);
}
