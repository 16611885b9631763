/** Signals without relying on AbortSignal.any/timeout, so the runtime runs on any fetch platform. */

export interface Linked {
  signal: AbortSignal;
  /** Abort with a reason of our own (a timeout). */
  abort(reason: unknown): void;
  /** Stop listening to the parent signal. */
  dispose(): void;
}

export const linkSignal = (parent: AbortSignal | undefined): Linked => {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: followSignal(parent, controller),
  };
};

/** Aborts `controller` when `parent` does (now, if it already has); returns the function that stops listening. */
export const followSignal = (parent: AbortSignal | undefined, controller: AbortController): (() => void) => {
  const onAbort = () => controller.abort(parent!.reason);
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  return () => parent?.removeEventListener('abort', onAbort);
};

/** The error a cancelled call rejects with: the signal's reason, or a DOMException AbortError. */
export const abortReason = (signal: AbortSignal): unknown => {
  return signal.reason ?? abortError('This operation was aborted');
};

export const abortError = (message: string): DOMException => {
  return new DOMException(message, 'AbortError');
};

export const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> => {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
};

/** The promise, or the signal's reason as soon as it aborts (a getToken() that never settles): for signers. */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
