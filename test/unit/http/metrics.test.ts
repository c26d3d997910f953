import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../../src/http/metrics.js';

describe('gateway metrics', () => {
  it("counts what an adapter reports of its platform, by platform, bot and the platform's code", async () => {
    const metrics = new GatewayMetrics();
    const cloud = metrics.forPlatform('whatsapp-cloud', 'main');
    cloud.deliveryFailed('131026');
    cloud.deliveryFailed('131026');
    metrics.forPlatform('whatsapp-cloud', 'sales').deliveryFailed('131047');
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'chatbridge_platform_delivery_failed_total{platform="whatsapp-cloud",bot="main",code="131026"} 2',
    );
    expect(text).toContain(
      'chatbridge_platform_delivery_failed_total{platform="whatsapp-cloud",bot="sales",code="131047"} 1',
    );
  });

  it('counts the replies refused because the reply window had closed', async () => {
    const metrics = new GatewayMetrics();
    metrics.observer().windowClosed?.({ bot: 'main', platform: 'whatsapp-cloud', id: '4915112345678' });
    expect(await metrics.registry.metrics()).toContain(
      'chatbridge_window_closed_total{platform="whatsapp-cloud",bot="main"} 1',
    );
  });
});
