/** Real-estate listings of the scripted service: a builder for tests, and RealEstateList's paging (docs/chatbot-service-api.md §9). */
import { z } from 'zod';
import type { ListingItem, ListingPage } from '../../src/upstream/api.js';

/** A house for sale in `city`, as RealEstateList returns it (numbers as strings, absent values ""). */
export function listingItem(id: number, city: string, extra: Partial<ListingItem> = {}): ListingItem {
  return {
    ID: id,
    PropertyType: 'House',
    SaleType: 'For Sale',
    Status: 'Active',
    Images: '',
    CurrencySymbol: '$',
    State: 'TX',
    City: city,
    Address: `${id} Main St`,
    ZIP: '78701',
    Area: '1800 Square Feet',
    Url: `https://example.com/listing/${id}`,
    Tours: '',
    Description: '',
    Price: String(400_000 + id),
    Bathrooms: '2',
    Bedrooms: '3',
    YearBuilt: '2001',
    MLSNumber: `MLS${id}`,
    DaysOnMarket: '3',
    LotArea: '',
    BuildingArea: '1800',
    ParkingSpots: '2',
    RentPrice: '',
    SpaceType: '',
    DepositFee: '',
    SalePrice: '',
    UnitAreaPrice: '',
    ZestimatePrice: '',
    HOAMonth: '',
    LATITUDE: 0,
    LONGITUDE: 0,
    ExtensionColumn: '',
    ...extra,
  };
}

export const listingQuerySchema = z.object({
  SerialNumber: z.string().min(1),
  CityName: z.string().nullish(),
  SaleType: z.enum(['for_sale', 'for_rent']).nullish(),
  MLSNumber: z.string().nullish(),
  PageNumber: z.number().int().min(1).nullish(),
  PageSize: z.number().int().min(1).nullish(),
});

const SALE_TYPE_SHOWN = { for_sale: 'For Sale', for_rent: 'For Rent' } as const;

/** Whole values, any case, surrounding spaces ignored. */
const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

export function listingPage(listings: readonly ListingItem[], query: z.output<typeof listingQuerySchema>): ListingPage {
  const matching = listings.filter(
    (item) =>
      (!query.CityName || sameText(item.City, query.CityName)) &&
      (!query.SaleType || item.SaleType === SALE_TYPE_SHOWN[query.SaleType]) &&
      (!query.MLSNumber || sameText(item.MLSNumber, query.MLSNumber)),
  );
  const size = query.PageSize ?? 20;
  const page = query.PageNumber ?? 1;
  return { List: matching.slice((page - 1) * size, page * size), VirtualCount: matching.length };
}
