import { z } from 'zod';
import type { CallOptions, DeleteKeyType, ListingInput, ListingItem, ListingPage, ListingQuery } from './api.js';
import { caseInsensitiveObject, intLike, stringLike } from './case-insensitive.js';
import type { UpstreamContext } from './context.js';
import { parseData } from './envelope.js';

/**
 * List items carry numbers as strings and absent values as "" (spec). We keep that
 * contract even when a host sends a number, null or nothing, so callers can rely on it.
 */
const displayText = z
  .unknown()
  .transform((value): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return JSON.stringify(value);
  })
  .default('');

/** LATITUDE/LONGITUDE: numbers; a numeric string is read as one, absent as 0. */
const coordinate = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
    z.literal(''),
  ])
  .nullish()
  .transform((value): number => (typeof value === 'number' ? value : 0))
  .default(0);

const listingItemSchema = caseInsensitiveObject({
  ID: intLike,
  PropertyType: displayText,
  SaleType: displayText,
  Status: displayText,
  Images: displayText,
  CurrencySymbol: displayText,
  State: displayText,
  City: displayText,
  Address: displayText,
  ZIP: displayText,
  Area: displayText,
  Url: displayText,
  Tours: displayText,
  Description: displayText,
  Price: displayText,
  Bathrooms: displayText,
  Bedrooms: displayText,
  YearBuilt: displayText,
  MLSNumber: displayText,
  DaysOnMarket: displayText,
  LotArea: displayText,
  BuildingArea: displayText,
  ParkingSpots: displayText,
  RentPrice: displayText,
  SpaceType: displayText,
  DepositFee: displayText,
  SalePrice: displayText,
  UnitAreaPrice: displayText,
  ZestimatePrice: displayText,
  HOAMonth: displayText,
  LATITUDE: coordinate,
  LONGITUDE: coordinate,
  ExtensionColumn: displayText,
}) satisfies z.ZodType<ListingItem>;

const listingPageSchema = caseInsensitiveObject({
  List: z
    .array(listingItemSchema)
    .nullish()
    .transform((list) => list ?? []),
  VirtualCount: intLike.nullish(),
}).transform((page): ListingPage => ({ List: page.List, VirtualCount: page.VirtualCount ?? page.List.length }));

const deleteResultSchema = caseInsensitiveObject({ SuccessCount: intLike });

/** Returns the new listing's id (the "NewOaks" key of RealEstateDelete). */
export async function createListing(
  ctx: UpstreamContext,
  listing: ListingInput,
  options?: CallOptions,
): Promise<string> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'RealEstateCreate',
      method: 'POST',
      target: ctx.paths.realEstateCreate,
      credential: 'both',
      json: listing,
      idempotent: false,
    },
    options,
  );
  return parseData('RealEstateCreate', status, stringLike.pipe(z.string().min(1, 'the new listing id is empty')), data);
}

export async function listListings(
  ctx: UpstreamContext,
  query: ListingQuery,
  options?: CallOptions,
): Promise<ListingPage> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'RealEstateList',
      method: 'POST',
      target: ctx.paths.realEstateList,
      credential: 'session',
      json: query,
      idempotent: true,
    },
    options,
  );
  return parseData('RealEstateList', status, listingPageSchema, data);
}

export async function deleteListings(
  ctx: UpstreamContext,
  request: { SerialNumber: string; Keys: string[]; KeyType: DeleteKeyType },
  options?: CallOptions,
): Promise<{ successCount: number }> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'RealEstateDelete',
      method: 'POST',
      target: ctx.paths.realEstateDelete,
      credential: 'both',
      json: request,
      idempotent: true,
    },
    options,
  );
  return { successCount: parseData('RealEstateDelete', status, deleteResultSchema, data).SuccessCount };
}
