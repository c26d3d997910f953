import type { Button, SentMessage } from '../../../contract.js';
import { deliverFinal } from '../final-delivery.js';
import type { RenderContext, StreamRenderer } from './context.js';

/** For platforms that cannot edit: the typing indicator runs until the whole answer is sent at once. */
export class BufferedRenderer implements StreamRenderer {
  readonly kind = 'buffered' as const;
  readonly failed = false;

  constructor(private readonly context: RenderContext) {}

  onText(): void {
    // Nothing to show before the final answer; the relay keeps the typing indicator alive.
  }

  async settle(): Promise<void> {}

  async finish(finalMarkdown: string, buttons?: Button[]): Promise<SentMessage[]> {
    await this.context.beforeFirstVisible();
    return deliverFinal(this.context, [], finalMarkdown, buttons);
  }
}
