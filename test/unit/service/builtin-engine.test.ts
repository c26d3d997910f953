import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { composeBuiltinAnswer } from '../../../src/service/engines/builtin.js';
import { wordGroups } from '../../../src/service/engines/fragments.js';
import { countTokens } from '../../../src/service/engines/tokens.js';
import type { ChatbotRecord } from '../../../src/service/repos/chatbots.js';
import type { Listing } from '../../../src/service/validation/listing.js';
import { defaultSettings } from '../../../src/service/validation/settings.js';

const chatbot = (settings: Partial<ChatbotRecord['settings']> = {}): ChatbotRecord => ({
  serialNumber: 'x',
  type: 0,
  createdAt: '',
  settings: { ...defaultSettings(), ...settings },
});

const home = (fields: Partial<Listing>): Listing => ({
  ID: 1,
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Condo',
  Bedrooms: 2,
  Bathrooms: 1,
  Url: 'https://h/1',
  MLSNumber: 'M-1',
  YearBuilt: 2000,
  DaysOnMarket: 1,
  LotArea: 0,
  BuildingArea: 900,
  AreaUnit: 'Square Feet',
  ParkingSpots: 1,
  City: 'Austin',
  SalePrice: 400000,
  ...fields,
});

const listings = [
  home({ ID: 1, MLSNumber: 'A-1', City: 'Austin', Bedrooms: 2, SalePrice: 400000 }),
  home({
    ID: 2,
    MLSNumber: 'A-2',
    City: 'Austin',
    Bedrooms: 4,
    Bathrooms: 3,
    SalePrice: 900000,
    PropertyType: 'Single Family',
  }),
  home({ ID: 3, MLSNumber: 'D-1', City: 'San Antonio', SaleType: 'for_rent', SalePrice: undefined, RentPrice: 1800 }),
];

const answer = (question: string, settings: Partial<ChatbotRecord['settings']> = {}) =>
  composeBuiltinAnswer({ chatbot: chatbot(settings), question, askType: 'Text', listings });

describe('the builtin engine', () => {
  it('filters by city, including multi-word cities, bedrooms, bathrooms and price range', () => {
    expect(answer('anything in san antonio?').text).toContain('MLS D-1');
    expect(answer('4 bedrooms in Austin').text).toMatch(/^I found 1 listing.*\n.*MLS A-2/);
    expect(answer('at least 3 baths').text).toContain('MLS A-2');
    expect(answer('homes over $500k').text).toContain('MLS A-2');
    expect(answer('homes for sale under 1.2m').text).toMatch(/^I found 2 listings/);
    expect(answer('homes under 500k').text).toMatch(/^I found 2 listings/); // the rent, per month, is under it too
  });

  it('tells rent from sale and shows rent per month', () => {
    expect(answer('I want to rent').text).toContain('for rent $1,800/month');
    expect(answer('I want to buy a home').text).toMatch(/^I found 2 listings/);
  });

  it('finds a listing by MLS number and says so when it does not exist', () => {
    expect(answer('MLS a-2 please').text).toContain('Single Family, Austin: 4 bd, 3 ba, for sale $900,000');
    expect(answer('mls ZZ-9').text).toBe('I could not find any listing MLS ZZ-9.');
  });

  it("greets only on greetings, with the welcome message or a phrase in the chatbot's language", () => {
    expect(answer('hello!', { WelcomeMessage: '' }).text).toBe('Hello! How can I help you today?');
    expect(answer('hola', { WelcomeMessage: '', AIResponseLanguage: 'Español' }).text).toBe(
      '¡Hola! ¿En qué puedo ayudarte hoy?',
    );
    expect(answer('hello, any homes in Austin?').text).toMatch(/^I found 2 listings/);
  });

  it('is grounded or says noAnswer', () => {
    expect(answer('tell me a joke')).toMatchObject({ noAnswer: true });
    expect(
      composeBuiltinAnswer({ chatbot: chatbot(), question: 'homes in Austin', askType: 'Text', listings: [] }),
    ).toEqual({ text: 'There are no listings available at the moment.', noAnswer: true });
  });

  it('says "none in Paris" for a place no listing is in, naming it, instead of listing everything', () => {
    expect(answer('homes in Paris').text).toBe(
      'I could not find any listing in Paris. Our listings are in Austin and San Antonio.',
    );
    expect(answer('any apartments for rent in new york?').text).toBe(
      'I could not find any listing (apartment) for rent in New York. Our listings are in Austin and San Antonio.',
    );
    expect(answer('homes in Paris')).toMatchObject({ noAnswer: false });
  });

  it('does not take words after "in" that are not places for a place', () => {
    expect(answer('homes in Austin, TX').text).toMatch(/^I found 2 listings/);
    expect(answer("I'm interested in buying a home").text).toMatch(/^I found 2 listings/);
    expect(answer('homes in good condition').text).toMatch(/^I found 3 listings/);
    expect(answer('Homes in Austin for sale under $500k').text).toMatch(/^I found 1 listing/);
  });

  it('names any criterion the listings cannot meet', () => {
    expect(answer('10 bedroom homes in Austin').text).toBe(
      'I could not find any listing in Austin with at least 10 bedrooms.',
    );
    expect(answer('homes under $100').text).toBe('I could not find any listing under $100.');
    expect(answer('villas in Austin').text).toBe('I could not find any listing (villa) in Austin.');
  });

  it('filters by a kind of home named by a common word', () => {
    const mixed = [
      ...listings,
      home({
        ID: 4,
        MLSNumber: 'A-3',
        City: 'Austin',
        PropertyType: 'Apartment',
        SaleType: 'for_rent',
        SalePrice: undefined,
        RentPrice: 1500,
      }),
    ];
    const text = composeBuiltinAnswer({
      chatbot: chatbot(),
      question: 'apartments in Austin',
      askType: 'Text',
      listings: mixed,
    }).text;
    expect(text).toMatch(/^I found 1 listing that matches:\n- Apartment, Austin/);
  });

  it('answers a photo with what it received and, with a caption, the caption', () => {
    const photo = { kind: 'photo' as const, format: 'JPEG', bytes: 53_350, width: 640, height: 480 };
    const alone = composeBuiltinAnswer({
      chatbot: chatbot(),
      question: '',
      askType: 'Image',
      listings,
      media: [photo],
    });
    expect(alone.text).toBe(
      "Thanks, I received your photo (JPEG, 640×480 pixels, 52.1 KB). I can't look at images myself in this demo: " +
        'tell me in words what you are looking for (a city, bedrooms, a budget or an MLS number) and I will search the listings.',
    );
    const captioned = composeBuiltinAnswer({
      chatbot: chatbot(),
      question: 'like this in San Antonio?',
      askType: 'Image',
      listings,
      media: [photo],
    });
    expect(captioned.text).toMatch(
      new RegExp(
        String.raw`^Thanks, I received your photo \(JPEG, 640×480 pixels, 52.1 KB\)\. ` +
          String.raw`I can't look at images myself, so here is the answer to your words:\n\nI found 1 listing that matches:\n.*MLS D-1`,
      ),
    );
  });

  it('answers a voice message and a video with their length, or says the length is unknown', () => {
    const voice = composeBuiltinAnswer({
      chatbot: chatbot(),
      question: '',
      askType: 'Audio',
      listings,
      media: [{ kind: 'voice', format: 'WAV', bytes: 64_044, seconds: 2.0001 }],
    });
    expect(voice.text).toMatch(
      /^Thanks, I received your voice message \(WAV, 2\.0 seconds, 62\.5 KB\)\. I can't listen to recordings myself/,
    );
    const video = composeBuiltinAnswer({
      chatbot: chatbot(),
      question: '',
      askType: 'Video',
      listings,
      media: [{ kind: 'video', format: 'MP4', bytes: 2_000_000, seconds: 74.4 }],
    });
    expect(video.text).toMatch(
      /^Thanks, I received your video \(MP4, 74 seconds, 1\.9 MB\)\. I can't watch videos myself/,
    );
    const unknown = composeBuiltinAnswer({
      chatbot: chatbot(),
      question: '',
      askType: 'Video',
      listings,
      media: [{ kind: 'video', format: 'AVI', bytes: 900 }],
    });
    expect(unknown.text).toContain('(AVI, I could not read its length, 900 bytes)');
  });

  it("speaks about media in the chatbot's language", () => {
    const text = composeBuiltinAnswer({
      chatbot: chatbot({ AIResponseLanguage: 'Spanish' }),
      question: '',
      askType: 'Audio',
      listings,
      media: [{ kind: 'voice', format: 'WAV', bytes: 100, seconds: 3 }],
    }).text;
    expect(text).toMatch(
      /^Gracias, recibí tu mensaje de voz \(WAV, 3\.0 segundos, 100 bytes\)\. En esta demo no puedo escuchar grabaciones/,
    );
  });

  it('is deterministic', () => {
    expect(answer('3 bedrooms to buy in Austin')).toEqual(answer('3 bedrooms to buy in Austin'));
  });
});

describe('word groups', () => {
  it('joined, give back exactly the text', () => {
    fc.assert(fc.property(fc.string(), (text) => wordGroups(text).join('') === text));
  });

  it('hold a few words each', () => {
    expect(wordGroups('one two three four five', 2)).toEqual(['one two ', 'three four ', 'five']);
  });
});

describe('token counting', () => {
  it('counts cl100k_base tokens', async () => {
    expect(await countTokens('')).toBe(0);
    expect(await countTokens('hello world')).toBe(2);
  });
});
