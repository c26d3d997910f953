/**
 * The kit's SinkHolder with revise() (InboundSink.revise): the kit's holder has none yet
 * (src/contract/kit/sink-holder.ts), so a revision goes to the sink start() was given, and one
 * that arrives outside start()…stop() is refused as the holder refuses a message. Once the kit's
 * holder passes revisions on itself, this file goes.
 */
import {
  AdapterNotStartedError,
  SinkHolder,
  type InboundRevision,
  type InboundSink,
  type NotStartedWords,
} from '../../src/contract.js';

export class RevisingSinkHolder extends SinkHolder {
  private held: InboundSink | undefined;

  constructor(private readonly refusal: NotStartedWords) {
    super(refusal);
  }

  override hold(sink: InboundSink): void {
    super.hold(sink);
    this.held = sink;
  }

  override release(): void {
    super.release();
    this.held = undefined;
  }

  /** Passes a revision on; a sink without revise() (a test's) takes none. */
  async revise(revision: InboundRevision): Promise<void> {
    if (!this.held) {
      const { who, then } = this.refusal;
      throw new AdapterNotStartedError(
        `${who} received a change to a message before start() or after stop()${then ? `; ${then}` : ''}`,
      );
    }
    await this.held.revise?.(revision);
  }
}
