import type { AppRouter } from '@svc/core-client';
import type { inferRouterOutputs } from '@trpc/server';

/** What core answers the console's queries, as its pages show it. */
type Answers = inferRouterOutputs<AppRouter>;
export type DeviceRequest = Answers['deviceAuth']['view'];
export type DevMessage = Answers['dev']['outbox']['messages'][number];
export type DevMail = Answers['dev']['mailbox']['messages'][number];
export type InboxAnswer = Answers['chats']['inbox'];
export type InboxChat = InboxAnswer['chats'][number];
export type ChatAnswer = Answers['chats']['get'];
export type ChatMessage = ChatAnswer['messages'][number];
export type FlagAnswer = Answers['flags']['list']['flags'][number];
export type FlagWithHistoryAnswer = Answers['flags']['get'];
/** A chat's flag as its page shows it: with its history and the live run that fixed it. */
export type ChatFlagAnswer = Answers['flags']['ofChat']['flags'][number];
