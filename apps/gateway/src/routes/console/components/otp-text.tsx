/**
 * A code the dev sender kept, with the code standing out. Codes are digits and the message's only run of four
 * or more of them (its other numbers are minutes), so the first such run is the code.
 */
const code = /\b\d{4,10}\b/;

export function OtpText({ text }: { text: string }) {
  const match = code.exec(text);
  if (!match) return <>{text}</>;
  return (
    <>
      {text.slice(0, match.index)}
      <code className="otp">{match[0]}</code>
      {text.slice(match.index + match[0].length)}
    </>
  );
}
