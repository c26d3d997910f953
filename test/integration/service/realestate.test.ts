import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, startTestService, type TestService } from './harness.js';

interface Page {
  List: Record<string, unknown>[];
  VirtualCount: number;
}

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const list = (query: Record<string, unknown>) =>
  service.call<Page>('/chat/Chatbot/RealEstateList', query, { auth: 'session' });

describe('RealEstateCreate', () => {
  it('returns the new listing id as a string, usable as a NewOaks key', async () => {
    const serialNumber = await service.newChatbot();
    const id = await service.createListing(serialNumber);
    expect(id).toMatch(/^\d+$/);
    const page = await list({ SerialNumber: serialNumber });
    expect(page.body.Data!.List[0]!.ID).toBe(Number(id));
  });

  it.each([
    [{ SaleType: 'sale' }, 'SaleType must be one of "for_sale", "for_rent".'],
    [{ Status: 'Pending' }, 'Status must be one of "Active", "PreOnMarket", "Sold".'],
    [{ AreaUnit: 'Acres' }, 'AreaUnit must be one of "Square Feet", "Square Meters".'],
    [{ Bedrooms: 'three' }, 'Bedrooms must be a number.'],
    [{ Bedrooms: undefined }, 'Bedrooms is required.'],
    [{ MLSNumber: '' }, 'MLSNumber must not be empty.'],
    [{ YearBuilt: 1998.5 }, 'YearBuilt must be a whole number.'],
    [{ Tours: 'VR' }, 'Tours must be one of "OpenHouse", "3D".'],
    [{ SpaceType: 'Garage' }, 'SpaceType must be one of "Entire place", "Room".'],
    [{ Images: 'https://x/1.jpg' }, 'Images must be an array.'],
    [{ Images: [1] }, 'Images[0] must be a string.'],
    [{ ExtensionColumn: [{ Key: 'Pool' }] }, 'ExtensionColumn[0].value is required.'],
    [{ Latitude: 91 }, 'Latitude must be at most 90.'],
    [{ SalePrice: -1 }, 'SalePrice must be at least 0.'],
  ])('refuses %j, names the field, and stores nothing', async (change, message) => {
    const serialNumber = await service.newChatbot();
    const reply = await service.call('/chat/Chatbot/RealEstateCreate', listing(serialNumber, change), {
      auth: 'session',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ Success: false, Code: 400, Message: message });
    expect((await list({ SerialNumber: serialNumber })).body.Data!.VirtualCount).toBe(0);
  });

  it('refuses a listing for an unknown chatbot with 404', async () => {
    const reply = await service.call('/chat/Chatbot/RealEstateCreate', listing('0'.repeat(32)), { auth: 'session' });
    expect(reply.status).toBe(404);
    expect(reply.body.Message).toContain('No chatbot has the SerialNumber');
  });

  it('binds field names case-insensitively, including inside ExtensionColumn', async () => {
    const serialNumber = await service.newChatbot();
    const body = Object.fromEntries(
      Object.entries(listing(serialNumber)).map(([key, value]) => [key.toLowerCase(), value]),
    );
    const reply = await service.call(
      '/chat/Chatbot/RealEstateCreate',
      { ...body, extensioncolumn: [{ key: 'Pool', VALUE: 'Yes' }] },
      { auth: 'session' },
    );
    expect(reply.status).toBe(200);
    expect((await list({ SerialNumber: serialNumber })).body.Data!.List[0]!.ExtensionColumn).toBe('Pool: Yes');
  });
});

describe('RealEstateList rendering', () => {
  it('renders numbers as strings, absent values as "", the display SaleType, Price, Area, Images and ExtensionColumn', async () => {
    const serialNumber = await service.newChatbot();
    await service.createListing(serialNumber, {
      Images: ['https://x/1.jpg', 'https://x/2.jpg'],
      ExtensionColumn: [
        { Key: 'Pool', value: 'Yes' },
        { Key: 'View', value: 'Lake' },
      ],
      Latitude: 30.25,
      Longitude: -97.75,
      SalePrice: 585000,
      Bathrooms: 2.5,
    });
    await service.createListing(serialNumber, {
      SaleType: 'for_rent',
      SalePrice: undefined,
      RentPrice: 1650,
      AreaUnit: 'Square Meters',
      BuildingArea: 70,
      MLSNumber: 'R-1',
    });
    const [sale, rent] = (await list({ SerialNumber: serialNumber })).body.Data!.List;
    expect(sale).toMatchObject({
      SaleType: 'For Sale',
      Price: '585000',
      SalePrice: '585000',
      RentPrice: '',
      Bathrooms: '2.5',
      Bedrooms: '3',
      YearBuilt: '1998',
      Area: '2500 Square Feet',
      Images: 'https://x/1.jpg,https://x/2.jpg',
      ExtensionColumn: 'Pool: Yes; View: Lake',
      LATITUDE: 30.25,
      LONGITUDE: -97.75,
      State: '',
      ZIP: '',
      Tours: '',
      HOAMonth: '',
    });
    expect(rent).toMatchObject({
      SaleType: 'For Rent',
      Price: '1650',
      SalePrice: '',
      Area: '70 Square Meters',
      LATITUDE: 0,
      LONGITUDE: 0,
      Images: '',
      ExtensionColumn: '',
    });
    for (const [field, value] of Object.entries(sale!)) {
      const numeric = field === 'ID' || field === 'LATITUDE' || field === 'LONGITUDE';
      expect(typeof value, field).toBe(numeric ? 'number' : 'string');
    }
  });
});

describe('RealEstateList filters and pages', () => {
  let serialNumber: string;

  beforeAll(async () => {
    serialNumber = await service.newChatbot();
    for (let i = 1; i <= 25; i++) {
      await service.createListing(serialNumber, {
        City: i % 2 ? 'Austin' : 'Denver',
        SaleType: i % 5 === 0 ? 'for_rent' : 'for_sale',
        MLSNumber: `M-${i}`,
        RentPrice: 1000 + i,
      });
    }
  });

  it('defaults to page 1 of 20 and counts every match in VirtualCount', async () => {
    const page = (await list({ SerialNumber: serialNumber })).body.Data!;
    expect(page.List).toHaveLength(20);
    expect(page.VirtualCount).toBe(25);
    expect(page.List[0]!.MLSNumber).toBe('M-1');
  });

  it('pages with PageNumber and PageSize', async () => {
    const page = (await list({ SerialNumber: serialNumber, PageNumber: 3, PageSize: 10 })).body.Data!;
    expect(page.List.map((item) => item.MLSNumber)).toEqual(['M-21', 'M-22', 'M-23', 'M-24', 'M-25']);
    expect((await list({ SerialNumber: serialNumber, PageNumber: 9 })).body.Data).toEqual({
      List: [],
      VirtualCount: 25,
    });
  });

  it('filters by city ignoring case, by sale type and by MLS number', async () => {
    expect((await list({ SerialNumber: serialNumber, CityName: 'aUSTIN' })).body.Data!.VirtualCount).toBe(13);
    expect((await list({ SerialNumber: serialNumber, CityName: 'Aus' })).body.Data!.VirtualCount).toBe(0);
    expect((await list({ SerialNumber: serialNumber, SaleType: 'for_rent' })).body.Data!.VirtualCount).toBe(5);
    expect(
      (await list({ SerialNumber: serialNumber, CityName: 'Denver', SaleType: 'for_rent' })).body.Data!.VirtualCount,
    ).toBe(2);
    const byMls = (await list({ SerialNumber: serialNumber, MLSNumber: 'M-7' })).body.Data!;
    expect(byMls.List.map((item) => item.MLSNumber)).toEqual(['M-7']);
  });

  it.each([
    [{ PageSize: 101 }, 'PageSize must be at most 100.'],
    [{ PageSize: 0 }, 'PageSize must be at least 1.'],
    [{ PageNumber: 0 }, 'PageNumber must be at least 1.'],
    [{ PageNumber: '2' }, 'PageNumber must be a number.'],
    [{ SaleType: 'For Sale' }, 'SaleType must be one of "for_sale", "for_rent".'],
    [{ SerialNumber: undefined }, 'SerialNumber is required.'],
  ])('refuses %j clearly', async (change, message) => {
    const reply = await list({ SerialNumber: serialNumber, ...change });
    expect(reply.body).toMatchObject({ Code: 400, Message: message });
  });

  it('answers 404 for an unknown chatbot', async () => {
    expect((await list({ SerialNumber: 'unknown' })).status).toBe(404);
  });
});

describe('RealEstateDelete', () => {
  it('deletes by NewOaks id, by MLS number and by URL, counting what it deleted', async () => {
    const serialNumber = await service.newChatbot();
    const id = await service.createListing(serialNumber, { MLSNumber: 'A', Url: 'https://h/a' });
    await service.createListing(serialNumber, { MLSNumber: 'B', Url: 'https://h/b' });
    await service.createListing(serialNumber, { MLSNumber: 'C', Url: 'https://h/c' });
    await service.createListing(serialNumber, { MLSNumber: 'D', Url: 'https://h/d' });
    const del = (Keys: string[], KeyType: string) =>
      service.call(
        '/chat/Chatbot/RealEstateDelete',
        { SerialNumber: serialNumber, Keys, KeyType },
        { auth: 'session' },
      );

    expect((await del([id, '999999'], 'NewOaks')).body.Data).toEqual({ SuccessCount: 1 });
    expect((await del(['B'], 'MLSNumber')).body.Data).toEqual({ SuccessCount: 1 });
    expect((await del(['https://h/c'], 'URL')).body.Data).toEqual({ SuccessCount: 1 });
    expect((await del(['B'], 'MLSNumber')).body.Data).toEqual({ SuccessCount: 0 });
    const remaining = (await list({ SerialNumber: serialNumber })).body.Data!;
    expect(remaining.List.map((item) => item.MLSNumber)).toEqual(['D']);
  });

  it('refuses a bad KeyType or empty Keys and deletes nothing', async () => {
    const serialNumber = await service.newChatbot();
    await service.createListing(serialNumber);
    const badType = await service.call('/chat/Chatbot/RealEstateDelete', {
      SerialNumber: serialNumber,
      Keys: ['1'],
      KeyType: 'Id',
    });
    expect(badType.body).toMatchObject({ Code: 400, Message: 'KeyType must be one of "NewOaks", "MLSNumber", "URL".' });
    const empty = await service.call('/chat/Chatbot/RealEstateDelete', {
      SerialNumber: serialNumber,
      Keys: [],
      KeyType: 'URL',
    });
    expect(empty.body).toMatchObject({ Code: 400, Message: 'Keys must hold at least 1 item(s).' });
    expect((await list({ SerialNumber: serialNumber })).body.Data!.VirtualCount).toBe(1);
  });
});
