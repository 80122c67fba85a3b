import type { AckUpdate, DriverContext, InboundCall, InboundMessage, InboundOutcome } from './channel-driver.js';

/** A message subscriber; the pipeline answers what became of the message (other subscribers may answer nothing). */
export type MessageListener = (whatsappId: number, message: InboundMessage) => void | InboundOutcome | Promise<void | InboundOutcome>;
export type AckListener = (whatsappId: number, update: AckUpdate) => void | Promise<void>;
export type HistoryListener = (whatsappId: number, messages: InboundMessage[]) => void | Promise<void>;
/** A call subscriber: resolves true when the call must be rejected. */
export type CallListener = (whatsappId: number, call: InboundCall) => boolean | Promise<boolean>;

type Listener<A extends unknown[]> = (...args: A) => void | Promise<void>;

/**
 * Fans out what drivers receive to subscribers (the tickets pipeline). A message is handled once every
 * subscriber finished with it: `message()` waits for them and fails when one failed, so a driver never
 * counts a message as handled before it is stored. Acks are fire-and-forget and history listeners' failures are logged, never thrown.
 */
export class InboundHub {
  private readonly messageListeners = new Set<MessageListener>();
  private readonly ackListeners = new Set<AckListener>();
  private readonly historyListeners = new Set<HistoryListener>();
  private readonly callListeners = new Set<CallListener>();

  constructor(private readonly log: DriverContext['log']) {}

  onMessage(listener: MessageListener): () => void {
    return this.add(this.messageListeners, listener);
  }

  onAck(listener: AckListener): () => void {
    return this.add(this.ackListeners, listener);
  }

  onHistory(listener: HistoryListener): () => void {
    return this.add(this.historyListeners, listener);
  }

  onCall(listener: CallListener): () => void {
    return this.add(this.callListeners, listener);
  }

  /** Asks every call subscriber; true when one says to reject the call. A failing subscriber is logged, never thrown. */
  async call(whatsappId: number, call: InboundCall): Promise<boolean> {
    const results = await Promise.allSettled([...this.callListeners].map(async (listener) => listener(whatsappId, call)));
    for (const r of results) {
      if (r.status === 'rejected') this.log.error({ err: r.reason as unknown, whatsappId, kind: 'call', callId: call.id }, 'call listener failed');
    }
    return results.some((r) => r.status === 'fulfilled' && r.value === true);
  }

  /**
   * Runs every message subscriber and waits for all of them. 'duplicate' when a subscriber found the message
   * already stored and none stored it now; 'ignored' when one ignored it and none stored it; else 'stored'.
   * Rejects with the first failure, after every subscriber has settled.
   */
  async message(whatsappId: number, message: InboundMessage): Promise<InboundOutcome> {
    const results = await Promise.allSettled(
      [...this.messageListeners].map(async (listener) => listener(whatsappId, message)),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      this.log.error({ err: failed.reason as unknown, whatsappId, kind: 'message', messageId: message.id }, 'inbound message not stored');
      throw failed.reason;
    }
    const outcomes = results.map((r) => (r as PromiseFulfilledResult<void | InboundOutcome>).value);
    if (outcomes.includes('stored')) return 'stored';
    if (outcomes.includes('duplicate')) return 'duplicate';
    if (outcomes.includes('ignored')) return 'ignored';
    return 'stored';
  }

  ack(whatsappId: number, update: AckUpdate): void {
    this.dispatch(this.ackListeners, 'ack', whatsappId, update);
  }

  /** Runs every history subscriber and waits for them; a failure is logged, never thrown. */
  async history(whatsappId: number, messages: InboundMessage[]): Promise<void> {
    await Promise.all(
      [...this.historyListeners].map(async (listener) => {
        try {
          await listener(whatsappId, messages);
        } catch (err) {
          this.log.error({ err, whatsappId, kind: 'history' }, 'inbound listener failed');
        }
      }),
    );
  }

  private add<L>(set: Set<L>, listener: L): () => void {
    set.add(listener);
    return () => set.delete(listener);
  }

  private dispatch<A>(set: Set<Listener<[number, A]>>, kind: string, whatsappId: number, payload: A): void {
    for (const listener of set) {
      const fail = (err: unknown) => this.log.error({ err, whatsappId, kind }, 'inbound listener failed');
      try {
        const result = listener(whatsappId, payload);
        if (result instanceof Promise) result.catch(fail);
      } catch (err) {
        fail(err);
      }
    }
  }
}
