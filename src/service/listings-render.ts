import type { ListingItem } from '../upstream/api.js';
import type { Listing } from './validation/listing.js';

const text = (value: number | string | undefined): string => (value === undefined ? '' : String(value));

/** A stored listing in the list-item shape of the spec: numbers as strings, absent values "". */
export function renderListing(listing: Listing): ListingItem {
  const forSale = listing.SaleType === 'for_sale';
  return {
    ID: listing.ID,
    PropertyType: listing.PropertyType,
    SaleType: forSale ? 'For Sale' : 'For Rent',
    Status: listing.Status,
    Images: (listing.Images ?? []).join(','),
    CurrencySymbol: listing.CurrencySymbol,
    State: text(listing.State),
    City: text(listing.City),
    Address: text(listing.Address),
    ZIP: text(listing.ZIP),
    Area: `${listing.BuildingArea} ${listing.AreaUnit}`,
    Url: listing.Url,
    Tours: text(listing.Tours),
    Description: text(listing.Description),
    Price: text(forSale ? listing.SalePrice : listing.RentPrice),
    Bathrooms: text(listing.Bathrooms),
    Bedrooms: text(listing.Bedrooms),
    YearBuilt: text(listing.YearBuilt),
    MLSNumber: listing.MLSNumber,
    DaysOnMarket: text(listing.DaysOnMarket),
    LotArea: text(listing.LotArea),
    BuildingArea: text(listing.BuildingArea),
    ParkingSpots: text(listing.ParkingSpots),
    RentPrice: text(listing.RentPrice),
    SpaceType: text(listing.SpaceType),
    DepositFee: text(listing.DepositFee),
    SalePrice: text(listing.SalePrice),
    UnitAreaPrice: text(listing.UnitAreaPrice),
    ZestimatePrice: text(listing.ZestimatePrice),
    HOAMonth: text(listing.HOAMonth),
    LATITUDE: listing.Latitude ?? 0,
    LONGITUDE: listing.Longitude ?? 0,
    ExtensionColumn: (listing.ExtensionColumn ?? []).map((entry) => `${entry.Key}: ${entry.value}`).join('; '),
  };
}
