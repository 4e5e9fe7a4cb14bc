/** The label of the issue that holds the flags digest (spec section 6). */
export const flagsLabel = {
  name: 'service-flags',
  color: 'd93f0b',
  description: 'Agent replies flagged by supervisors, as a digest for a coding agent',
};
