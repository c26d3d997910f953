/**
 * Who is a lead on a day and why: asked about or was shown listings, asked for a person, wrote a
 * phone number or an e-mail address, shared a contact card. Someone who only chatted is none.
 */
import { describe, expect, it } from 'vitest';
import type { ListingItem } from '../../../../src/upstream/api.js';
import { findLead, listingFacts } from '../../../../src/handoff/digests/lead-finder.js';
import { bot, listings, platformName, telegram, user } from './fixtures.js';

const options = { platformName, inboxUrl: 'https://gw.example/inbox/c/abc' };
const [oak, lake, pine] = listings;

describe('findLead', () => {
  it('is none for someone who only chatted', () => {
    const day = telegram([user('hello, what can you do?'), bot('I answer questions about homes.', '09:01')]);
    expect(findLead(day, listings, options)).toBeNull();
  });

  it('counts /listings with a city, and names the city', () => {
    const lead = findLead(
      telegram([user('/listings Round Rock 2'), bot('**Listings in Round Rock** · page 2 of 3 (25 in all)')]),
      listings,
      options,
    );
    expect(lead).toMatchObject({ reasons: ['listings'], cities: ['Round Rock'], platform: 'Telegram' });
    expect(lead?.inboxUrl).toBe('https://gw.example/inbox/c/abc');
  });

  it('names a city as the listings spell it, and asks for an inbox link for leads only', () => {
    const asked: string[] = [];
    const inboxUrl = (conversation: { id: string }) => {
      asked.push(conversation.id);
      return `https://gw.example/inbox/c/${conversation.id}`;
    };
    const lead = findLead(telegram([user('/listings austin')], undefined, '7'), listings, { platformName, inboxUrl });
    expect(lead).toMatchObject({ cities: ['Austin'], inboxUrl: 'https://gw.example/inbox/c/7' });
    expect(findLead(telegram([user('hi')], undefined, '8'), listings, { platformName, inboxUrl })).toBeNull();
    expect(asked).toEqual(['7']);
  });

  it('counts /listings without a city (with the bot’s name after it, as Telegram groups send it)', () => {
    const lead = findLead(telegram([user('/listings@acme_homes_bot')]), listings, options);
    expect(lead).toMatchObject({ reasons: ['listings'], cities: [] });
  });

  it('counts a press of the listings’ paging buttons, as the platforms give it back', () => {
    expect(findLead(telegram([user('Next »')]), listings, options)?.reasons).toEqual(['listings']);
    const bare = findLead(telegram([user('(pressed a button: listings:2:Austin)')]), listings, options);
    expect(bare).toMatchObject({ reasons: ['listings'], cities: ['Austin'] });
  });

  it("reads the listings' pages and buttons in every language the gateway speaks", () => {
    const pressed = findLead(
      telegram([user('Siguiente »'), bot('**Propiedades en San Antonio** · página 2 de 3 (1.204 en total)')]),
      listings,
      options,
    );
    expect(pressed).toMatchObject({ reasons: ['listings'], cities: ['San Antonio'] });
    const german = findLead(telegram([bot('**Angebote in Köln** · Seite 1 von 2 (12 insgesamt)')]), listings, options);
    expect(german).toMatchObject({ reasons: ['listings'], cities: ['Köln'] });
    expect(findLead(telegram([user('« Précédente')]), listings, options)?.reasons).toEqual(['listings']);
  });

  it('collects the listings the bot showed, each once, by MLS number or street address', () => {
    const page = [
      '**Listings in Austin** · page 1 of 1 (2 in all)',
      '**1. House · 3 bd** — $450,000\n12 Oak Street, Austin, TX 78701 · MLS 1234567',
      '**2. House** — $615,000\n901 Pine Avenue, Austin, TX 78702 · MLS 5550001',
    ].join('\n\n');
    const lead = findLead(telegram([user('/listings Austin'), bot(page), bot(page, '09:05')]), listings, options);
    expect(lead?.listings).toEqual([oak, pine]);
    expect(lead?.cities).toEqual(['Austin']);
  });

  it('counts a user who names a listing by its MLS number or its address, whatever the case', () => {
    const byMls = findLead(telegram([user('is mls 7654321 still free?')]), listings, options);
    expect(byMls).toMatchObject({ reasons: ['listings'], listings: [lake] });
    const byAddress = findLead(telegram([user('Can I see 12 OAK   street tomorrow?')]), listings, options);
    expect(byAddress).toMatchObject({ reasons: ['listings'], listings: [oak] });
  });

  it('counts the listings the bot named in an answer, whatever punctuation is around them', () => {
    const lead = findLead(
      telegram([user('something with a lake view?'), bot('Yes: 5 Lake-View Drive (MLS #7654321).')]),
      listings,
      options,
    );
    expect(lead).toMatchObject({ reasons: ['listings'], listings: [lake], cities: [] });
  });

  it('takes no phone number’s digits for an MLS number', () => {
    const lead = findLead(telegram([user('my office: +49 30 1234567')]), listings, options);
    expect(lead).toMatchObject({ reasons: ['phone'], listings: [] });
  });

  it('counts a city of the listings in the user’s words, but not in the bot’s', () => {
    const asked = findLead(telegram([user('any homes in austin under 500k?')]), listings, options);
    expect(asked).toMatchObject({ reasons: ['listings'], cities: ['Austin'], listings: [] });
    expect(findLead(telegram([user('hi'), bot('We sell homes all over Austin.')]), listings, options)).toBeNull();
    // Whole words only: "Austinville" is another place.
    expect(findLead(telegram([user('I live in Austinville')]), listings, options)).toBeNull();
  });

  it('counts a request for a person: a handover that day', () => {
    const lead = findLead(
      telegram([
        user('/human'),
        { at: 0, role: 'system', text: 'Handed over to a person: the user sent /human.', event: 'handed-over' },
      ]),
      listings,
      options,
    );
    expect(lead?.reasons).toEqual(['person']);
  });

  it('counts a phone number or an e-mail address they wrote, and keeps them', () => {
    const lead = findLead(
      telegram([user('call me: +1 512 555 0100'), user('or mail ana@example.com, +1 (512) 555-0100 again', '09:10')]),
      listings,
      options,
    );
    expect(lead).toMatchObject({
      reasons: ['phone', 'email'],
      phones: ['+15125550100'],
      emails: ['ana@example.com'],
      lastMessage: 'or mail ana@example.com, +1 (512) 555-0100 again',
    });
  });

  it('counts a contact card a WhatsApp user shared', () => {
    const card = user('', '09:00', {
      attachments: ['other (whatsapp-vcard, 0 bytes)'],
      files: [{ kind: 'other', fileName: 'whatsapp-vcard', size: 0 }],
    });
    const day = { conversation: { bot: 'main', platform: 'whatsapp', id: '4915112345678@c.us' }, entries: [card] };
    expect(findLead(day, listings, options)).toMatchObject({
      reasons: ['contact'],
      phones: ['+4915112345678'],
      platform: 'WhatsApp',
    });
  });

  it('gives a WhatsApp user’s own number first, reads their national numbers by its country, and does not count it alone', () => {
    const conversation = { bot: 'main', platform: 'whatsapp-cloud', id: '4915112345678' };
    expect(findLead({ conversation, entries: [user('Hallo!')] }, listings, options)).toBeNull();
    const lead = findLead(
      {
        conversation,
        user: { id: '4915112345678', name: 'Jörg' },
        entries: [user('Büro: 030 1234567, mobil 0151 12345678')],
      },
      listings,
      options,
    );
    expect(lead).toMatchObject({ reasons: ['phone'], phones: ['+4915112345678', '+49301234567'] });
  });

  it('lists every reason of a busy day in one order, and their last message', () => {
    const lead = findLead(
      telegram([
        user('ana@example.com'),
        { at: 0, role: 'system', text: 'Handed over to a person.', event: 'handed-over' },
        user('homes in Round Rock?', '09:30'),
        { at: 0, role: 'operator', text: 'Sure, call +1 512 555 0199', operator: 'Bob' },
        user('thanks!', '09:40'),
      ]),
      listings,
      options,
    );
    // The operator's number is not the user's.
    expect(lead).toMatchObject({ reasons: ['listings', 'person', 'email'], phones: [], lastMessage: 'thanks!' });
  });
});

describe('listingFacts', () => {
  const item = (fields: Partial<ListingItem>) => ({ ...({} as ListingItem), ...fields }) as ListingItem;

  it('keeps MLS number, address, city and the price with its currency symbol', () => {
    expect(
      listingFacts([
        item({
          MLSNumber: '1234567',
          Address: '12 Oak Street ',
          City: 'Austin',
          Price: '450000',
          CurrencySymbol: '$',
          SaleType: 'For Sale',
        }),
        item({
          MLSNumber: '7654321',
          Address: '5 Lake View Drive',
          City: 'Round Rock',
          RentPrice: '2100',
          SaleType: 'For Rent',
          CurrencySymbol: '$',
        }),
      ]),
    ).toEqual([oak, lake]);
  });

  it('leaves out what the service did not give', () => {
    expect(listingFacts([item({ MLSNumber: 'X1', Address: 'Somewhere 1' })])).toEqual([
      { mls: 'X1', address: 'Somewhere 1', city: '', price: '' },
    ]);
  });
});
