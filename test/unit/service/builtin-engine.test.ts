import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { composeBuiltinAnswer } from '../../../src/service/engines/builtin.js';
import { wordGroups } from '../../../src/service/engines/fragments.js';
import { countTokens } from '../../../src/service/engines/tokens.js';
import type { ChatbotRecord } from '../../../src/service/repos/chatbots.js';
import type { Listing } from '../../../src/service/validation/listing.js';
import { defaultSettings } from '../../../src/service/validation/settings.js';

const chatbot = (settings: Partial<ChatbotRecord['settings']> = {}): ChatbotRecord =>
  ({ serialNumber: 'x', type: 0, createdAt: '', settings: { ...defaultSettings(), ...settings } });

const home = (fields: Partial<Listing>): Listing => ({
  ID: 1, SaleType: 'for_sale', Status: 'Active', CurrencySymbol: '$', PropertyType: 'Condo', Bedrooms: 2, Bathrooms: 1,
  Url: 'https://h/1', MLSNumber: 'M-1', YearBuilt: 2000, DaysOnMarket: 1, LotArea: 0, BuildingArea: 900,
  AreaUnit: 'Square Feet', ParkingSpots: 1, City: 'Austin', SalePrice: 400000, ...fields,
});

const listings = [
  home({ ID: 1, MLSNumber: 'A-1', City: 'Austin', Bedrooms: 2, SalePrice: 400000 }),
  home({ ID: 2, MLSNumber: 'A-2', City: 'Austin', Bedrooms: 4, Bathrooms: 3, SalePrice: 900000, PropertyType: 'Single Family' }),
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

  it('greets only on greetings, with the welcome message or a phrase in the chatbot\'s language', () => {
    expect(answer('hello!', { WelcomeMessage: '' }).text).toBe('Hello! How can I help you today?');
    expect(answer('hola', { WelcomeMessage: '', AIResponseLanguage: 'Español' }).text).toBe('¡Hola! ¿En qué puedo ayudarte hoy?');
    expect(answer('hello, any homes in Austin?').text).toMatch(/^I found 2 listings/);
  });

  it('is grounded or says noAnswer', () => {
    expect(answer('tell me a joke')).toMatchObject({ noAnswer: true });
    expect(composeBuiltinAnswer({ chatbot: chatbot(), question: 'homes in Austin', askType: 'Text', listings: [] }))
      .toEqual({ text: 'There are no listings available at the moment.', noAnswer: true });
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
  it('counts cl100k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });
});
