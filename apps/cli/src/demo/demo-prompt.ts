/** The prompt the offline demo runs when none is given. */
export const DEMO_PROMPT =
  'Set up a small notes folder for the Ankole project, check it with the shell, read it back and tell me what is in it.';
