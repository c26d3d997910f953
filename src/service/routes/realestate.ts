import type { Endpoint, ServiceContext } from '../context.js';
import { sendOk } from '../envelope.js';
import { renderListing } from '../listings-render.js';
import { parseBody } from '../validation/bind.js';
import { deleteSchema, listingCreateSchema, listQuerySchema } from '../validation/listing.js';

export function realEstateEndpoints(ctx: ServiceContext): Endpoint[] {
  const listSchema = listQuerySchema(ctx.limits.maxPageSize);
  return [
    {
      path: '/chat/Chatbot/RealEstateCreate',
      methods: ['POST'],
      credential: 'either',
      async handle(req, res) {
        const input = parseBody(listingCreateSchema, req.body);
        await ctx.chatbots.get(input.SerialNumber);
        const listing = await ctx.listings.create(input);
        sendOk(res, String(listing.ID));
      },
    },
    {
      path: '/chat/Chatbot/RealEstateList',
      methods: ['POST'],
      credential: 'session',
      async handle(req, res) {
        const query = parseBody(listSchema, req.body);
        await ctx.chatbots.get(query.SerialNumber);
        const matches = await ctx.listings.find(query.SerialNumber, {
          ...(query.CityName === undefined ? {} : { city: query.CityName }),
          ...(query.SaleType === undefined ? {} : { saleType: query.SaleType }),
          ...(query.MLSNumber === undefined ? {} : { mlsNumber: query.MLSNumber }),
        });
        const pageSize = query.PageSize ?? 20;
        const start = ((query.PageNumber ?? 1) - 1) * pageSize;
        sendOk(res, { List: matches.slice(start, start + pageSize).map(renderListing), VirtualCount: matches.length });
      },
    },
    {
      path: '/chat/Chatbot/RealEstateDelete',
      methods: ['POST'],
      credential: 'either',
      async handle(req, res) {
        const body = parseBody(deleteSchema, req.body);
        await ctx.chatbots.get(body.SerialNumber);
        const successCount = await ctx.listings.delete(body.SerialNumber, body.Keys, body.KeyType);
        sendOk(res, { SuccessCount: successCount });
      },
    },
  ];
}
