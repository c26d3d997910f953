/**
 * What a real-estate chatbot's users ask and what it answers, made up from sentence patterns with varied streets,
 * cities, numbers and prices: text that compresses as a conversation's does (a pattern repeats across turns, the
 * facts do not), not a repeated string that Brotli would shrink to nothing. Deterministic: the same conversation and
 * turn give the same words in every run. The answers hold no character that HTML escapes (' & < >), so that a bench
 * can tell the final shown in a chat from the answer given (BenchPlatform compares them as they are).
 */

const CITIES = ['Austin', 'Round Rock', 'Cedar Park', 'Pflugerville', 'Georgetown', 'Leander', 'Buda', 'Kyle'];
const STREETS = [
  'Maple Street',
  'Elm Street',
  'Oak Hollow Drive',
  'Barton Springs Road',
  'Riverside Drive',
  'Cypress Creek Lane',
  'Walnut Avenue',
  'Brushy Creek Road',
  'Lakeview Terrace',
  'Sunset Ridge',
  'Pecan Grove Court',
  'Mesa Verde Way',
];
const KINDS = ['Single Family Residential', 'Townhouse', 'Condo', 'Ranch house', 'Craftsman bungalow'];
const FEATURES = [
  'renovated kitchen with quartz counters',
  'two-car garage',
  'covered patio',
  'fenced backyard with a pecan tree',
  'primary suite on the ground floor',
  'home office with built-in shelves',
  'new roof (2022)',
  'pool with a spa',
  'open-plan living room with a fireplace',
  'walk-in pantry',
  'hardwood floors throughout',
  'energy-efficient windows',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const PLACES = ['downtown', 'the Domain', 'the airport', 'Lady Bird Lake', 'the university', 'the tech corridor'];
const SCHOOLS = ['Hill', 'Bryker Woods', 'Zilker', 'Casis', 'Lee', 'Brentwood', 'Doss', 'Pillow'];

/** A small seeded generator (mulberry32): the same seed, the same words. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Pick {
  one<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
}

function picker(seed: number): Pick {
  const next = random(seed);
  return {
    one: (items) => items[Math.floor(next() * items.length)]!,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}

const money = (value: number): string => `$${value.toLocaleString('en-US')}`;

const ANSWER_SENTENCES: ((p: Pick) => string)[] = [
  (p) =>
    `I found ${p.int(2, 6)} listings that match. The closest is a ${p.one(KINDS)} at ${p.int(100, 9999)} ${p.one(STREETS)}, ` +
    `${p.one(CITIES)}: ${p.int(2, 5)} bd, ${p.int(1, 3)}.5 ba, for sale ${money(p.int(28, 95) * 10_000)}, MLS TX-${p.int(10000, 99999)}.`,
  (p) => `It was built in ${p.int(1965, 2021)} and has a ${p.one(FEATURES)} and a ${p.one(FEATURES)}.`,
  (p) =>
    `The HOA fee is ${money(p.int(4, 30) * 10)} a month, and the property taxes were ${money(p.int(38, 140) * 100)} last year.`,
  (p) =>
    `An open house is planned for ${p.one(DAYS)} from ${p.int(9, 11)} am to ${p.int(1, 5)} pm; no appointment needed.`,
  (p) =>
    `It is about ${p.int(8, 35)} minutes from ${p.one(PLACES)}, and ${p.one(SCHOOLS)} Elementary is ${p.int(2, 15)} blocks away.`,
  (p) =>
    `The lot is ${p.int(12, 60) / 100} acres, with ${p.int(1400, 4200).toLocaleString('en-US')} square feet of living space.`,
  (p) =>
    `The seller has already replaced the ${p.one(FEATURES)} and would consider closing within ${p.int(30, 60)} days.`,
  (p) =>
    `Homes on this street sold for ${money(p.int(180, 420))} to ${money(p.int(430, 650))} per square foot over the last ${p.int(6, 24)} months.`,
  (p) => `Would you like me to set up a viewing, or send you similar homes in ${p.one(CITIES)}?`,
  (p) => `Pets are welcome; the community has a dog park and ${p.int(2, 8)} miles of walking trails.`,
];

/** A bot answer of about `chars` characters (whole sentences, a little over). */
export function answerText(seed: number, chars = 600): string {
  const p = picker(seed);
  const sentences: string[] = [];
  let length = 0;
  while (length < chars - 40) {
    const sentence = p.one(ANSWER_SENTENCES)(p);
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** A user's question; with `contact`, the one where they leave a phone number and an e-mail address (a lead). */
export function questionText(seed: number, contact?: { phoneDigits: string; email: string }): string {
  const p = picker(seed);
  if (contact)
    return `Please call me on +1 512 555 ${contact.phoneDigits} or mail ${contact.email}, I'd like to see it`;
  const asks = [
    `Do you have ${p.int(2, 5)} bedroom homes for sale in ${p.one(CITIES)}?`,
    `What is the price of the house on ${p.one(STREETS)}?`,
    `Is the listing at ${p.int(100, 9999)} ${p.one(STREETS)} still available?`,
    `Can I visit it on ${p.one(DAYS)} afternoon?`,
    `How far is it from ${p.one(PLACES)}?`,
    `Are pets allowed there? We have a dog`,
    `Anything under ${money(p.int(30, 70) * 10_000)} with a garden?`,
  ];
  return p.one(asks);
}
