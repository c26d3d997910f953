/** /listings [city] [page]: browse the chatbot's real-estate listings, with paging buttons. */
import {
  LISTINGS_ACTION_PREFIX,
  listingsView,
  parseListingsArgs,
  parseListingsPayload,
  type ListingsRequest,
} from './listings-page.js';
import type { ButtonAction, Command } from './registry.js';
import type { TurnContext } from '../turn/index.js';

async function showListings(ctx: TurnContext, request: ListingsRequest): Promise<void> {
  const pageSize = ctx.services.policy.listingsPageSize;
  const result = await ctx.services.upstream.listListings(
    {
      SerialNumber: ctx.bot.serialNumber,
      ...(request.city ? { CityName: request.city } : {}),
      PageNumber: request.page,
      PageSize: pageSize,
    },
    { signal: ctx.signal },
  );
  const view = listingsView(request, result, pageSize, ctx.capabilities.buttons, (await ctx.texts()).listings);
  await ctx.reply(view.markdown, view.buttons.length > 0 ? { buttons: view.buttons } : {});
}

export const listingsCommand: Command = {
  name: 'listings',
  usage: '/listings [city]',
  description: (texts) => texts.commandDescriptions.listings,
  run: (ctx, args) => showListings(ctx, parseListingsArgs(args)),
};

export const listingsAction: ButtonAction = {
  prefix: LISTINGS_ACTION_PREFIX,
  run: (ctx, payload) => showListings(ctx, parseListingsPayload(payload)),
};
