/** The property names of an object type, of an array's elements, or of each member of a union. */
type KeysOf<T> = T extends readonly (infer TElement)[] ? KeysOf<TElement> : T extends object ? keyof T : never;

/**
 * `true` when `A` and `B` describe the same values: each is assignable to the other and they have the same property
 * names (so an optional property on one side only is a difference too). Used to check at compile time that a zod
 * schema's output type and a hand-written interface agree.
 */
export type SameShape<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [KeysOf<A>] extends [KeysOf<B>]
      ? [KeysOf<B>] extends [KeysOf<A>]
        ? true
        : false
      : false
    : false
  : false;
