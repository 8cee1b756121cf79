// qrcode-terminal (Apache-2.0) ships no types; this is the one call `hop qr show` makes.
declare module 'qrcode-terminal' {
  const qrcode: { generate(text: string, opts: { small: boolean }, cb: (drawing: string) => void): void };
  export default qrcode;
}
