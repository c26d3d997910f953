import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

/**
 * The documents a newcomer reads first must not point at files that are not in
 * the repository (the README once linked to ../shared/spec/…), and must state
 * the Node releases package.json `engines` names, and no others.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Plain text of a heading, as GitHub reads it to make its anchor (no backticks, no link syntax). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens?.length) return plainText(token.tokens);
      return 'text' in token ? token.text : token.raw;
    })
    .join('');
}

/** GitHub's heading anchors: lower case, punctuation and symbols dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'heading') return;
    const slug = plainText((token as Tokens.Heading).tokens)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  });
  return anchors;
}

/** Every link target of a Markdown file, as written (code blocks and code spans hold none). */
function linksOf(markdown: string): string[] {
  const links: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') links.push((token as Tokens.Link).href);
  });
  return links;
}

/** What is wrong with a relative link from `document`, or null when it points at something that exists. */
function brokenLink(document: string, href: string): string | null {
  if (/^[a-z][a-z+.-]*:/i.test(href)) return null; // https:, mailto: … are not files of this repository
  const [pathPart = '', anchor] = href.split('#', 2);
  const target =
    pathPart === '' ? join(ROOT, document) : resolve(dirname(join(ROOT, document)), decodeURIComponent(pathPart));
  const shown = relative(ROOT, target) || '.';
  if (shown.startsWith('..')) return `${href} leaves the repository`;
  if (!existsSync(target)) return `${href}: ${shown} does not exist`;
  if (
    anchor !== undefined &&
    statSync(target).isFile() &&
    target.endsWith('.md') &&
    !anchorsOf(readFileSync(target, 'utf8')).has(anchor)
  ) {
    return `${href}: ${shown} has no heading with the anchor #${anchor}`;
  }
  return null;
}

describe('documentation', () => {
  it.each(DOCUMENTS)('%s links only to files and headings that exist in the repository', (document) => {
    const markdown = read(document);
    const links = linksOf(markdown);
    const broken = links.map((href) => brokenLink(document, href)).filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  it('README links to the Chatbot Service API reference kept in docs/', () => {
    expect(linksOf(read('README.md'))).toContain('docs/chatbot-service-api.md');
  });

  it('README states the Node releases package.json engines supports, and no other', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const lines = engines.split('||').map((range) => /^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(range)?.[1]);
    expect(lines, `engines.node is "${engines}"; keep it release lines, "^x.y.z || ^w.y.z"`).not.toContain(undefined);
    const readme = read('README.md');
    const requirements = /^Requirements: [\s\S]*?\n\n/m.exec(readme)?.[0] ?? '';
    expect(requirements).toContain(`\`${engines}\``);
    for (const line of lines) expect(requirements).toMatch(new RegExp(`Node\\.js[^.]*\\b${line}\\b`));
    // "Node ≥ x" would claim every later line too, tested or not.
    expect([...readme.matchAll(/Node(?:\.js)?\s*(?:≥|>=)\s*v?\d/g)].map((match) => match[0])).toEqual([]);
  });

  it('the Docker image runs the newest Node release line that engines names', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const newest = Math.max(...[...engines.matchAll(/\^(\d+)\./g)].map((match) => Number(match[1])));
    expect(read('Dockerfile')).toMatch(new RegExp(`^FROM node:${newest}[-.]`, 'm'));
  });
});
