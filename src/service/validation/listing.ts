import { z } from 'zod';
import { looseCaseObject } from './bind.js';

const amount = () => z.number().min(0).finite();
const text = (max = 2_000) => z.string().max(max);

export const SALE_TYPES = ['for_sale', 'for_rent'] as const;
export const KEY_TYPES = ['NewOaks', 'MLSNumber', 'URL'] as const;

/** Input of RealEstateCreate (spec: "Real-estate listing"); required fields per the spec's table. */
export const listingCreateSchema = z.object({
  SerialNumber: z.string().min(1),
  SaleType: z.enum(SALE_TYPES),
  Status: z.enum(['Active', 'PreOnMarket', 'Sold']),
  CurrencySymbol: text(8).min(1),
  PropertyType: text(100).min(1),
  Bedrooms: amount(),
  Bathrooms: amount(),
  Url: text().min(1),
  MLSNumber: text(100).min(1),
  YearBuilt: z.number().int().min(0).max(3000),
  DaysOnMarket: amount(),
  LotArea: amount(),
  BuildingArea: amount(),
  AreaUnit: z.enum(['Square Feet', 'Square Meters']),
  Images: z.array(text()).max(100).optional(),
  Tours: z.enum(['OpenHouse', '3D']).optional(),
  ParkingSpots: amount(),
  Description: text(20_000).optional(),
  ExtensionColumn: z
    .array(looseCaseObject({ Key: text(200), value: text() }))
    .max(100)
    .optional(),
  Location: text().optional(),
  Address: text().optional(),
  City: text(200).optional(),
  State: text(200).optional(),
  ZIP: text(20).optional(),
  Latitude: z.number().min(-90).max(90).optional(),
  Longitude: z.number().min(-180).max(180).optional(),
  SalePrice: amount().optional(),
  UnitAreaPrice: amount().optional(),
  HOAMonth: amount().optional(),
  ZestimatePrice: amount().optional(),
  RentPrice: amount().optional(),
  SpaceType: z.enum(['Entire place', 'Room']).optional(),
  DepositFee: amount().optional(),
});

export type ListingInput = z.infer<typeof listingCreateSchema>;
/** A stored listing: the input without SerialNumber, plus its id. */
export type Listing = Omit<ListingInput, 'SerialNumber'> & { ID: number };

export function listQuerySchema(maxPageSize: number) {
  return z.object({
    SerialNumber: z.string().min(1),
    CityName: z.string().optional(),
    SaleType: z.enum(SALE_TYPES).optional(),
    MLSNumber: z.string().optional(),
    PageNumber: z.number().int().min(1).optional(),
    PageSize: z.number().int().min(1).max(maxPageSize).optional(),
  });
}

export const deleteSchema = z.object({
  SerialNumber: z.string().min(1),
  Keys: z.array(z.string()).min(1).max(1_000),
  KeyType: z.enum(KEY_TYPES),
});
