/**
 * A language of the gateway's sentences: its catalogue (the shape of user-texts.ts) and how the
 * values an override's placeholders stand for are written in it (numbers, byte sizes, the words
 * for a file's kind), so that a sentence overridden in the config reads like the catalogue's own.
 */
import type { MediaKind, MediaNoun, UserTexts } from '../user-texts.js';

export type LanguageCode = 'en' | 'es' | 'pt' | 'fr' | 'de';

export interface Language {
  code: LanguageCode;
  /** As the Chatbot Service's AIResponseLanguage names it: "Spanish". */
  name: string;
  /** The locale numbers and lists are written in: "es-ES". */
  locale: string;
  texts: UserTexts;
  /** "20.000" */
  number(value: number): string;
  /** "23,4 MB" */
  bytes(value: number): string;
  /** What a file is called, without article: "foto". */
  nouns: Record<MediaNoun, string>;
  /** What a kind's size limit counts: "por imagen". */
  units: Record<MediaKind, string>;
  /** What a chatbot accepts, in a list: "fotos". */
  kinds: Record<MediaKind, string>;
}

/** A number in the locale's grouping: 20.000, 20 000, 20,000. */
export function numberIn(locale: string): (value: number) => string {
  const format = new Intl.NumberFormat(locale);
  return (value) => format.format(value);
}

/** "512 bytes", "120 KB", "20 MB", "23,4 MB": whole kilobytes, megabytes to one decimal, in the locale's digits. */
export function bytesIn(locale: string, units: { bytes: string; kb: string; mb: string }): (value: number) => string {
  const oneDecimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return (value) => {
    if (value < 1024) return `${whole.format(value)} ${units.bytes}`;
    if (value < 1024 * 1024) return `${whole.format(Math.round(value / 1024))} ${units.kb}`;
    const mb = value / (1024 * 1024);
    return `${Number.isInteger(mb) ? whole.format(mb) : oneDecimal.format(Math.round(mb * 10) / 10)} ${units.mb}`;
  };
}

/** "a, b y c" (conjunction) or "a o b" (disjunction), the locale's way. */
export function listIn(locale: string, type: 'conjunction' | 'disjunction'): (items: readonly string[]) => string {
  const format = new Intl.ListFormat(locale, { type, style: 'long' });
  return (items) => format.format(items);
}
