/** A moment as a person reads it (UTC, to the minute), the exact instant kept for machines. */
export const When = ({ at }: { at: string }) => <time dateTime={at}>{`${at.slice(0, 16).replace('T', ' ')} UTC`}</time>;
