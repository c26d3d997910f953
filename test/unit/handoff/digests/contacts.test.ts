/** The ways to reach someone that a text holds: phone numbers as E.164, e-mail addresses, a WhatsApp user's own number. */
import { describe, expect, it } from 'vitest';
import {
  countryOf,
  findEmails,
  findPhones,
  ownNumber,
  readContacts,
} from '../../../../src/handoff/digests/contacts.js';

describe('findPhones', () => {
  it('reads numbers in international form in any notation, as E.164', () => {
    expect(findPhones('call me at +1 512 555 0100 or +1 (512) 555-0199')).toEqual(['+15125550100', '+15125550199']);
    expect(findPhones('tel: +49 151 12345678, London +44 20 7946 0958')).toEqual(['+4915112345678', '+442079460958']);
  });

  it('reads numbers in national form only when it knows whose plan they follow', () => {
    expect(findPhones('meine Nummer: 0151 12345678')).toEqual([]);
    expect(findPhones('meine Nummer: 0151 12345678', 'DE')).toEqual(['+4915112345678']);
    expect(findPhones('reach me at (512) 555-0100', 'US')).toEqual(['+15125550100']);
  });

  it('gives each number once, however often and however it was written', () => {
    expect(findPhones('+4915112345678, again: 0151 1234 5678', 'DE')).toEqual(['+4915112345678']);
  });

  it('takes neither dates, prices nor MLS numbers for numbers', () => {
    expect(findPhones('the viewing on 2026-11-26 or 26.11.2026, MLS 1234567 at $450,000', 'DE')).toEqual([]);
    expect(findPhones('I have 3 kids and 2 dogs')).toEqual([]);
  });
});

describe('findEmails', () => {
  it('finds addresses in a sentence, without the punctuation around them', () => {
    expect(findEmails('Mail ana.lima@example.com. Or <bob+homes@mail.co.uk>, (x_y@sub.example.org)!')).toEqual([
      'ana.lima@example.com',
      'bob+homes@mail.co.uk',
      'x_y@sub.example.org',
    ]);
  });

  it('gives each address once, its domain in lower case', () => {
    expect(findEmails('Ana@Example.COM or ana@example.com')).toEqual(['Ana@example.com']);
  });

  it('refuses what only looks like an address', () => {
    expect(findEmails('a..b@example.com, foo@bar, @handle, me@x.y, a@-bad.com, 4915112345678@c.us')).toEqual([]);
  });
});

describe('readContacts', () => {
  it('reads both, and what the text says besides, with them blanked out', () => {
    const read = readContacts('Ana: ana@example.com or 0151 12345678, MLS 1234567', 'DE');
    expect(read.phones).toEqual(['+4915112345678']);
    expect(read.emails).toEqual(['ana@example.com']);
    expect(read.rest).toBe(`Ana: ${' '.repeat(15)} or ${' '.repeat(13)}, MLS 1234567`);
  });

  it('takes no digits of an address for a number', () => {
    expect(readContacts('ana.4915112345678@example.com', 'DE')).toMatchObject({
      phones: [],
      emails: ['ana.4915112345678@example.com'],
    });
  });
});

describe('ownNumber', () => {
  it('is the number of a WhatsApp Web user, whose id it is', () => {
    const own = ownNumber({ conversation: { bot: 'b', platform: 'whatsapp', id: '4915112345678@c.us' } });
    expect(own).toBe('+4915112345678');
    expect(countryOf(own)).toBe('DE');
  });

  it('is the author’s in a WhatsApp group, and none for an id that hides it', () => {
    expect(
      ownNumber({
        conversation: { bot: 'b', platform: 'whatsapp', id: '1203630@g.us' },
        user: { id: '15125550100@c.us' },
      }),
    ).toBe('+15125550100');
    expect(ownNumber({ conversation: { bot: 'b', platform: 'whatsapp', id: '123456789012345@lid' } })).toBeUndefined();
  });

  it('is the digits of a WhatsApp Cloud conversation, and none for a business-scoped id', () => {
    expect(ownNumber({ conversation: { bot: 'b', platform: 'whatsapp-cloud', id: '15125550100' } })).toBe(
      '+15125550100',
    );
    expect(
      ownNumber({ conversation: { bot: 'b', platform: 'whatsapp-cloud', id: 'US.13491208655302741918' } }),
    ).toBeUndefined();
  });

  it('is none on platforms whose ids are not numbers', () => {
    expect(ownNumber({ conversation: { bot: 'b', platform: 'telegram', id: '4915112345678' } })).toBeUndefined();
  });
});
