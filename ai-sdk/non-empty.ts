/** A list, or nothing when it has no items: V4 and unified fields leave an empty list out. */
export const nonEmpty = <T>(list: T[] | undefined): T[] | undefined => (list?.length ? list : undefined);
