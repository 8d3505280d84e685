// Per-document memo: analyses that several rules (and the hover) need are computed once. One memo
// holds for a parse under one workspace revision (context.ts): a catalog change starts a new one.

export interface MemoKey<T> {
  readonly name: string;
  /** Phantom field that carries T; never set. */
  readonly _type?: T;
}

export function memoKey<T>(name: string): MemoKey<T> {
  return { name };
}

export class Memo {
  private readonly values = new Map<MemoKey<unknown>, unknown>();

  get<T>(key: MemoKey<T>, compute: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = compute();
    this.values.set(key, value);
    return value;
  }
}
