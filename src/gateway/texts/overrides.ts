/**
 * A bot's own sentences from the config (`bots[].texts.<key>`), checked at start and put over the
 * catalogue of whichever language the chatbot speaks. A key is a sentence's path in the catalogue
 * (`media.sticker`), written flat or nested in YAML; an overridden sentence replaces that sentence
 * in every language (it is one text, in the language its author wrote it in). A sentence that is
 * a function is overridden with a template whose `{placeholders}` are its parameters
 * (placeholders.ts), written the way of the chatbot's language; `{{` and `}}` are literal braces.
 */
import type { UserTexts } from '../user-texts.js';
import type { Language } from './language.js';
import { placeholdersOf, sentenceAt, TEXT_KEYS, type Placeholder, type TextKey } from './placeholders.js';

/** A bot's checked overrides: key → sentence or template. */
export type TextOverrides = Readonly<Partial<Record<TextKey, string>>>;

export interface TextOverrideProblem {
  /** The key as written (dotted). */
  key: string;
  message: string;
}

const KEYS = new Set<string>(TEXT_KEYS);
/** `{name}`, or a doubled brace standing for itself. */
const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/**
 * Flattens `texts` as written in the config (`media: { sticker: … }` or `media.sticker: …`) and
 * checks each sentence: a key the catalogue has, a string, and only placeholders its sentence has.
 */
export function checkTextOverrides(raw: Readonly<Record<string, unknown>>): {
  overrides: TextOverrides;
  problems: TextOverrideProblem[];
} {
  const overrides: Record<string, string> = {};
  const problems: TextOverrideProblem[] = [];
  for (const [key, value] of flatten(raw, '')) {
    if (!KEYS.has(key)) {
      problems.push({ key, message: unknownKeyMessage(key) });
    } else if (typeof value !== 'string') {
      problems.push({ key, message: `must be a sentence (a string), not ${describe(value)}` });
    } else {
      const wrong = wrongPlaceholders(key as TextKey, value);
      if (wrong) problems.push({ key, message: wrong });
      else overrides[key] = value;
    }
  }
  return { overrides, problems };
}

/** checkTextOverrides for code that builds its bots itself: the first problem thrown, naming `where` ("bot main"). */
export function assertTextOverrides(overrides: Readonly<Record<string, unknown>> | undefined, where: string): void {
  if (!overrides) return;
  const [problem] = checkTextOverrides(overrides).problems;
  if (problem) throw new Error(`${where}: texts.${problem.key}: ${problem.message}`);
}

/** The catalogue of `language` with `overrides` put over it (a new object; the catalogue is not changed). */
export function withOverrides(language: Language, overrides: TextOverrides): UserTexts {
  const texts = copyOf(language.texts) as UserTexts;
  for (const [key, template] of Object.entries(overrides) as [TextKey, string][]) {
    const placeholders = placeholdersOf(key);
    const sentence =
      placeholders.length === 0 && typeof sentenceAt(language.texts, key) === 'string'
        ? unescapeBraces(template)
        : (...values: unknown[]) => fill(template, placeholders, values, language);
    setAt(texts, key, sentence);
  }
  return texts;
}

function fill(template: string, placeholders: readonly Placeholder[], values: unknown[], language: Language): string {
  return template.replace(PLACEHOLDER, (whole, name: string | undefined) => {
    if (name === undefined) return whole[0]!;
    const index = placeholders.findIndex(([placeholder]) => placeholder === name);
    const [, format] = placeholders[index]!;
    return written(values[index], format, language);
  });
}

/** A value the way the language writes it (placeholders.ts PlaceholderFormat). */
function written(value: unknown, format: Placeholder[1], language: Language): string {
  switch (format) {
    case 'number':
      return typeof value === 'number' ? language.number(value) : String(value);
    case 'bytes':
      return typeof value === 'number' ? language.bytes(value) : String(value);
    case 'noun':
      return language.nouns[value as keyof Language['nouns']] ?? String(value);
    case 'unit':
      return language.units[value as keyof Language['units']] ?? String(value);
    case 'upper':
      return String(value).toUpperCase();
    case 'or':
      return new Intl.ListFormat(language.locale, { type: 'disjunction' }).format(value as string[]);
    case 'kinds':
      return new Intl.ListFormat(language.locale, { type: 'conjunction' }).format(
        (value as (keyof Language['kinds'])[]).map((kind) => language.kinds[kind] ?? kind),
      );
    case 'text':
      return String(value);
  }
}

function wrongPlaceholders(key: TextKey, template: string): string | null {
  const names = placeholdersOf(key).map(([name]) => name);
  const unknown = [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1])
    .filter((name): name is string => name !== undefined && !names.includes(name));
  if (unknown.length === 0) return null;
  const listed = [...new Set(unknown)].map((name) => `{${name}}`).join(', ');
  const has = names.length > 0 ? `its placeholders are ${names.map((name) => `{${name}}`).join(', ')}` : 'it has none';
  return `${listed}: no such placeholder in this sentence (${has}; write {{ and }} for a literal brace)`;
}

function unknownKeyMessage(key: string): string {
  const near = nearKeys(key);
  return (
    'no sentence of the gateway has this key' +
    (near.length > 0 ? `; did you mean ${near.join(', ')}?` : '') +
    ' (README "The gateway\'s languages" lists every key)'
  );
}

/** Up to three keys a typo or a missing part may stand for: the sentences under it, then the closest spellings. */
function nearKeys(key: string): string[] {
  const under = TEXT_KEYS.filter((candidate) => candidate.startsWith(`${key}.`));
  if (under.length > 0) return under.slice(0, 3);
  const lower = key.toLowerCase();
  const last = (path: string) => path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return TEXT_KEYS.map((candidate) => ({
    candidate,
    distance: Math.min(editDistance(lower, candidate.toLowerCase()), editDistance(last(lower), last(candidate)) + 1),
  }))
    .filter(({ candidate, distance }) => distance <= Math.max(2, Math.floor(last(candidate).length / 3)))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function flatten(node: Readonly<Record<string, unknown>>, prefix: string): [string, unknown][] {
  return Object.entries(node).flatMap(([name, value]): [string, unknown][] =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? flatten(value as Record<string, unknown>, `${prefix}${name}.`)
      : [[`${prefix}${name}`, value]],
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

const unescapeBraces = (template: string): string => template.replace(/\{\{|\}\}/g, (brace) => brace[0]!);

/** A copy of the catalogue's objects (its sentences shared), so that an override changes only the copy. */
function copyOf(node: object): object {
  return Object.fromEntries(
    Object.entries(node).map(([name, value]) => [
      name,
      typeof value === 'object' && value !== null ? copyOf(value as object) : value,
    ]),
  );
}

function setAt(texts: UserTexts, key: TextKey, value: unknown): void {
  const parts = key.split('.');
  let node = texts as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1)!] = value;
}
