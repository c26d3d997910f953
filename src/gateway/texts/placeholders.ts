/**
 * The keys of the catalogue (`welcomeDefault`, `media.sticker`, `listings.nextButton`), and the
 * placeholders of each sentence that is a function: an override in the config writes a template,
 * `"You have {waiting} messages waiting"`, whose `{name}`s are the function's parameters, each
 * written the language's way (`format`). The types tie this list to the catalogue: a function
 * added to user-texts.ts does not compile until its placeholders are listed here, one per
 * parameter, in order, with a format its parameter's type can take.
 */
import { userTexts, type MediaKind, type MediaNoun, type UserTexts } from '../user-texts.js';

/**
 * How a value is written into a template: `text` as it is, `upper` in capitals (a file's
 * extension), `number` grouped the language's way, `bytes` as a size ("23,4 MB"), `noun` the
 * language's word for a file ("foto"), `unit` what a kind's limit counts ("imagen"), `or` a
 * list joined with the language's "or", `kinds` the names of media kinds joined with its "and".
 */
export type PlaceholderFormat = 'text' | 'upper' | 'number' | 'bytes' | 'noun' | 'unit' | 'or' | 'kinds';

type Sentence = string | ((...args: never[]) => string);

/** The dotted keys of the sentences of T. */
type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Sentence ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The sentence at a dotted key. */
type At<T, Key extends string> = Key extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : Key extends keyof T
    ? T[Key]
    : never;

/** Every key a bot's `texts` may override. */
export type TextKey = KeysOf<UserTexts>;

type FunctionKey = { [K in TextKey]: At<UserTexts, K> extends (...args: never[]) => string ? K : never }[TextKey];

/** The formats a parameter's type can be written in (not distributed over unions: MediaKind is not MediaNoun). */
type FormatFor<V> = [V] extends [MediaKind[]]
  ? 'kinds'
  : [V] extends [string[]]
    ? 'or'
    : [V] extends [number]
      ? 'number' | 'bytes'
      : [V] extends [MediaNoun]
        ? 'noun'
        : [V] extends [MediaKind]
          ? 'unit'
          : 'text' | 'upper';

type PlaceholdersOf<F> = F extends (...args: infer Args) => string
  ? { readonly [I in keyof Args]: readonly [name: string, format: FormatFor<Args[I]>] }
  : never;

/** A function sentence's placeholders, one per parameter, in the order of its parameters. */
export type Placeholder = readonly [name: string, format: PlaceholderFormat];

export const PLACEHOLDERS: { readonly [K in FunctionKey]: PlaceholdersOf<At<UserTexts, K>> } = {
  poisonMessage: [['tries', 'number']],
  queueFull: [['waiting', 'number']],
  messageTooLong: [
    ['limit', 'number'],
    ['length', 'number'],
  ],
  unknownCommand: [
    ['name', 'text'],
    ['help', 'text'],
  ],
  'listings.header': [
    ['page', 'number'],
    ['pages', 'number'],
    ['total', 'number'],
  ],
  'listings.headerInCity': [
    ['city', 'text'],
    ['page', 'number'],
    ['pages', 'number'],
    ['total', 'number'],
  ],
  'listings.pastTheEnd': [
    ['pages', 'number'],
    ['command', 'text'],
  ],
  'listings.pastTheEndInCity': [
    ['city', 'text'],
    ['pages', 'number'],
    ['command', 'text'],
  ],
  'listings.noneFoundInCity': [['city', 'text']],
  'listings.nextPageHint': [['command', 'text']],
  'listings.previousPageHint': [['command', 'text']],
  'listings.hints': [['hints', 'or']],
  'listings.bedrooms': [['count', 'text']],
  'listings.bathrooms': [['count', 'text']],
  'media.tooLarge': [
    ['noun', 'noun'],
    ['kind', 'unit'],
    ['limit', 'bytes'],
  ],
  'media.tooLargeOfSize': [
    ['noun', 'noun'],
    ['kind', 'unit'],
    ['limit', 'bytes'],
    ['size', 'bytes'],
  ],
  'media.tooLargeToDownload': [
    ['noun', 'noun'],
    ['limit', 'bytes'],
  ],
  'media.tooLargeToDownloadOfSize': [
    ['noun', 'noun'],
    ['limit', 'bytes'],
    ['size', 'bytes'],
  ],
  'media.tooLargeFile': [['limit', 'bytes']],
  'media.tooLargeFileOfSize': [
    ['limit', 'bytes'],
    ['size', 'bytes'],
  ],
  'media.tooLong': [
    ['noun', 'noun'],
    ['minutes', 'number'],
  ],
  'media.tooMany.image': [['max', 'number']],
  'media.imageFormat': [['ext', 'upper']],
  'media.videoFormat': [['ext', 'upper']],
  'media.notMedia': [['accepted', 'kinds']],
  'media.notMediaOfType': [
    ['ext', 'upper'],
    ['accepted', 'kinds'],
  ],
  'media.undecodableAudio': [['noun', 'noun']],
  'media.transcoderMissing': [['ext', 'upper']],
  'media.gone': [['noun', 'noun']],
  'media.unavailable': [['noun', 'noun']],
  'media.refusedByService': [
    ['noun', 'noun'],
    ['reason', 'text'],
  ],
};

/** The placeholders of the sentence at `key`: none for a plain sentence. */
export function placeholdersOf(key: TextKey): readonly Placeholder[] {
  return (PLACEHOLDERS as Partial<Record<TextKey, readonly Placeholder[]>>)[key] ?? [];
}

/** Every key of the catalogue, in its order (the English catalogue's: every language has the same). */
export const TEXT_KEYS: readonly TextKey[] = keysOf(userTexts, '') as TextKey[];

function keysOf(node: object, prefix: string): string[] {
  return Object.entries(node).flatMap(([name, value]) =>
    typeof value === 'string' || typeof value === 'function'
      ? [`${prefix}${name}`]
      : keysOf(value as object, `${prefix}${name}.`),
  );
}

/** The sentence at a key of a catalogue. */
export function sentenceAt(texts: UserTexts, key: TextKey): Sentence {
  let node: unknown = texts;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  return node as Sentence;
}
