/** What the server tells a coding agent at `initialize`: what it is for, and the loop its tools make. */
export const serverInstructions = (workspace: string): string =>
  [
    `svc runs WhatsApp agents; this server acts on workspace ${workspace} as your token allows, from the repository that`,
    'holds its agents (agents/<slug>/). People flag agent replies that were wrong, with a note saying what the agent',
    'should have said; each note is an eval case. The loop to fix the agents:',
    '1. Read the flags: flags_digest (all open flags in one document), get_flag for one in full.',
    '2. Fix the agents in the working tree (agents/<slug>/...); add_eval_case (update_eval_case) for a case no flag covers.',
    "3. push: deploys the working tree to the current branch's environment (feat/x deploys to feat-x).",
    '4. run_evals with wait on that environment; read what failed with eval_report, fix and push again until it passes.',
    '5. publish from that environment to live, only when the user asks: visitors then talk to it.',
    "Tools that fail answer a tool error with the API's error code, such as forbidden when your role may not do that.",
  ].join('\n');
