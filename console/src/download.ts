/**
 * Hands text to the browser as a downloaded file (the API needs the token, so a plain
 * link cannot fetch it); the sentence that tells it, for the action's outcome.
 */
export function saveFile(name: string, text: string, type: string): string {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The browser reads the blob after click() returns: free it once the download has surely started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return `Downloaded ${name}.`;
}
