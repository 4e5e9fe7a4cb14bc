import { anthropicMessage, chatCompletion, type FakeProvider, type FakeReply, type RecordedRequest, startFakeProvider } from '@svc/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { gradeByPhrases, isOneSentence, judge, parseJudgeAnswer, type Replay } from '../src/index.ts';

const replay = (lastReply: string, expected: string): Replay => ({
  messages: [
    { role: 'visitor', text: 'Where is order A-17?' },
    { role: 'agent', text: 'Order A-17 is shipped.' },
    { role: 'visitor', text: 'Can I get a refund?' },
    { role: 'agent', text: lastReply },
  ],
  expected,
});

describe('the deterministic grader', () => {
  it('passes when every quoted phrase is in the last reply, whatever the case', () => {
    const grade = gradeByPhrases(replay('You can get a REFUND within 30 days.', 'Offers a "refund" and says "30 days".'));
    expect(grade).toMatchObject({ verdict: 'pass', tokens: { input: 0, output: 0 } });
    expect(grade.reasoning).toBe('The last reply says "refund", "30 days".');
  });

  it('fails naming the phrases the last reply lacks; earlier replies do not count', () => {
    const grade = gradeByPhrases(replay('Sorry, I cannot help.', 'Says "shipped", "refund" and “30 days”.'));
    expect(grade.verdict).toBe('fail');
    expect(grade.reasoning).toBe('The last reply does not say "shipped", "refund", "30 days".');
  });

  it('is an error when the expected outcome quotes nothing', () => {
    expect(gradeByPhrases(replay('Refund granted.', 'Grants the refund politely.'))).toMatchObject({
      verdict: 'error',
      reasoning: 'needs a quoted phrase or a judge model',
    });
  });
});

describe("the judge's answer", () => {
  it('is the JSON object with a verdict and one sentence', () => {
    expect(parseJudgeAnswer('{"verdict":"pass","reasoning":"The agent offered the refund."}')).toEqual({
      verdict: 'pass',
      reasoning: 'The agent offered the refund.',
    });
    expect(parseJudgeAnswer('```json\n{"verdict":"fail","reasoning":"It never said 30 days."}\n```')?.verdict).toBe('fail');
  });

  it.each([
    ['prose', 'The agent passes.'],
    ['a verdict outside pass and fail', '{"verdict":"maybe","reasoning":"Unsure."}'],
    ['no reasoning', '{"verdict":"pass"}'],
    ['two sentences', '{"verdict":"pass","reasoning":"It offered a refund. It was polite."}'],
    ['several lines', '{"verdict":"pass","reasoning":"It offered\\na refund"}'],
  ])('is refused when it is %s', (_, text) => {
    expect(parseJudgeAnswer(text)).toBeUndefined();
  });

  it('counts abbreviations and numbers inside one sentence as one sentence', () => {
    expect(isOneSentence('It offered e.g. a refund of 3.50 dollars within 30 days.')).toBe(true);
    expect(isOneSentence('It offered a refund. Then it left.')).toBe(false);
  });
});

let model: FakeProvider | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const openAiAnswer = (content: string) => chatCompletion(content, { prompt_tokens: 300, completion_tokens: 25 });
const anthropicAnswer = (text: string) => anthropicMessage(text);

const unexpected = (req: RecordedRequest): FakeReply => ({ status: 500, body: { error: { message: `unexpected ${req.path}` } } });

describe('a judge on the Anthropic client', () => {
  const anthropicJudge = () => judge('anthropic:claude-sonnet-4-6', { anthropic: { baseURL: model!.url, apiKey: 'sk-ant-judge' } });

  it('reads the replay and the expected outcome and answers pass with its sentence and tokens', async () => {
    model = await startFakeProvider(unexpected);
    model.queue(anthropicAnswer('{"verdict":"pass","reasoning":"The agent offered a refund within 30 days."}'));
    const grade = await anthropicJudge().grade(replay('You can get a refund within 30 days.', 'Offers a refund within 30 days.'));
    expect(grade).toEqual({
      verdict: 'pass',
      reasoning: 'The agent offered a refund within 30 days.',
      tokens: { input: 200, output: 20 },
    });
    const sent = JSON.parse(model.requests[0]!.body);
    expect(model.requests[0]!.path).toBe('/v1/messages');
    expect(sent.model).toBe('claude-sonnet-4-6');
    expect(sent.system).toContain('JSON');
    expect(sent.messages[0].content).toContain('Visitor: Can I get a refund?\nAgent: You can get a refund within 30 days.');
    expect(sent.messages[0].content).toContain('Expected outcome: Offers a refund within 30 days.');
  });

  it('answers fail with its sentence', async () => {
    model = await startFakeProvider(unexpected);
    model.queue(anthropicAnswer('{"verdict":"fail","reasoning":"The agent refused the refund."}'));
    expect(await anthropicJudge().grade(replay('No refunds.', 'Offers a refund.'))).toMatchObject({
      verdict: 'fail',
      reasoning: 'The agent refused the refund.',
    });
  });

  it('is asked again once after a malformed answer, showing it what it said', async () => {
    model = await startFakeProvider(unexpected);
    model.queue(anthropicAnswer('Pass! The agent did well.'), anthropicAnswer('{"verdict":"pass","reasoning":"The agent did well."}'));
    const grade = await anthropicJudge().grade(replay('Refund granted.', 'Grants the refund.'));
    expect(grade).toEqual({ verdict: 'pass', reasoning: 'The agent did well.', tokens: { input: 400, output: 40 } });
    const retry = JSON.parse(model.requests[1]!.body).messages;
    expect(retry.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry[1].content).toBe('Pass! The agent did well.');
    expect(retry[2].content).toContain('only the JSON object');
  });

  it('makes the case an error after two malformed answers, and asks no third time', async () => {
    model = await startFakeProvider(unexpected);
    model.queue(
      anthropicAnswer('{"verdict":"pass"}'),
      anthropicAnswer('{"verdict":"pass","reasoning":"Fine. Really fine."}'),
      anthropicAnswer('{"verdict":"pass","reasoning":"Fine."}'),
    );
    const grade = await anthropicJudge().grade(replay('Refund granted.', 'Grants the refund.'));
    expect(grade).toMatchObject({ verdict: 'error', reasoning: 'the judge anthropic:claude-sonnet-4-6 answered malformed JSON twice' });
    expect(model.requests).toHaveLength(2);
  });

  it('waits as long as a 429 Retry-After says, then answers', async () => {
    model = await startFakeProvider(unexpected);
    model.queue(
      { status: 429, headers: { 'retry-after': '1' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } },
      anthropicAnswer('{"verdict":"pass","reasoning":"The agent granted it."}'),
    );
    const grade = await anthropicJudge().grade(replay('Refund granted.', 'Grants the refund.'));
    expect(grade.verdict).toBe('pass');
    const [limited, answered] = model.requests;
    expect(answered!.receivedAt - limited!.receivedAt).toBeGreaterThanOrEqual(1000);
  });
});

describe('a judge on the OpenAI client', () => {
  const openAiJudge = () => judge('openai:gpt-4.1-mini', { openai: { baseURL: `${model!.url}/v1`, apiKey: 'sk-judge' } });

  it('answers pass and fail from its JSON', async () => {
    model = await startFakeProvider(unexpected);
    model.queue(
      openAiAnswer('{"verdict":"pass","reasoning":"The refund was offered."}'),
      openAiAnswer('{"verdict":"fail","reasoning":"No refund was offered."}'),
    );
    expect(await openAiJudge().grade(replay('Refund granted.', 'Grants the refund.'))).toEqual({
      verdict: 'pass',
      reasoning: 'The refund was offered.',
      tokens: { input: 300, output: 25 },
    });
    expect((await openAiJudge().grade(replay('No.', 'Grants the refund.'))).verdict).toBe('fail');
    expect(model.requests[0]!.path).toBe('/v1/chat/completions');
    expect(JSON.parse(model.requests[0]!.body).messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
  });

  it('retries 5xx and 429 with backoff, then makes the case an error with the provider message', async () => {
    model = await startFakeProvider(() => ({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { message: 'Rate limit reached for gpt-4.1-mini', type: 'requests' } },
    }));
    model.queue({ status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'overloaded' } } });
    const grade = await openAiJudge().grade(replay('Refund granted.', 'Grants the refund.'));
    expect(grade.verdict).toBe('error');
    expect(grade.reasoning).toBe('the judge openai:gpt-4.1-mini failed: 429 Rate limit reached for gpt-4.1-mini');
    expect(model.requests).toHaveLength(5); // the call and 4 retries
  });
});
