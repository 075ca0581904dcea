/**
 * Small real images for proof-of-delivery tests (issue 18), drawn once in Chromium: a 48×32 JPEG
 * photo and a 60×24 PNG signature, as the browser sends them (data URLs).
 */
export const PHOTO_JPEG =
  'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAgADADASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAABAIFBv/EABYQAAMAAAAAAAAAAAAAAAAAAAACA//EABUBAQEAAAAAAAAAAAAAAAAAAAQF/8QAFREBAQAAAAAAAAAAAAAAAAAAAgD/2gAMAwEAAhEDEQA/AM2aiZqRNRE1DtUkGuaiZqRNRE1BtTAa5qJmpE1ETUI1LBuamomakTUTNR7UAGuaiJqRNRM1CNSwa5qImpE1EzUI1MBv/9k=';
export const SIGNATURE_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADwAAAAYCAYAAACmwZ5SAAACZklEQVR4AeyWS0iUURiGp4IW3aFa1qKo6B5UmyDoSnRfRBeigiIqgu4EXfbVIoqiiBYVFFFUBAoKXsALuFFUvKEoIqI7QRAVl/o8MDMwg+OMFwSPI99z3nN+55z/f8/3/WdmbmSW/WUNh57wbIazGZ65O7CWR38ECRFqSR/EZTW8hssQjxANm9UCHC4F9T8aj5AMz8fVbzCr89CXcBQGIR6hGN6Do3o4D0NwBp7BMCTETDe8EjffoQI2QDfshoQyZhyPTA3vZcZbaAV3rR91R3PQN3ADvBEybXGLO7VD7FB6R38TNEHKSGd4BzOLoBzuwzowFtFshVPwAD5DJbgZjegP8LqlRnfKYgUrPYFO+ASLoRQ2gs9nIuimjrEMX2VaLRyCLrgD22EOaHgn6jvzHLWEOlBjM80lMPOWmptQxdgMeN0sMMw4FvJJD59faA94GK1GLV/X20+/BTKKVIbvMvsrGB9ofEjVMmYY8eSrofMHXoCHxBp0GRyGp5APsR3fRd81zbwl5/wGruWCG+P/jtHfF+U2+gXqYABc6wJqlNBchFXwE8YVoxk+ywpmA4lcoTGz3pRu2ujjE8XwCo7DErAS7qH/oBeMBTRb4CRY+t4vj75m5CP9a7ANjGYav27WowfAbCPjj2TDLvgtuowPbEaiwwmLlfCe2W7kclSjp9HrYCV4GJqpQsZlUf6ij8GM+55aYY7buDaZiCQbvslqvjPuuGXEcMrDkraULVkr4SF38F08gmpQztE3o25AptXFlPSRbNifZSeY5omHhBfJhnXou6QGyWiGgzQaM5U1HNuJUHXWZXgEAAD//4V1vDMAAAAGSURBVAMAsNJuMY+9grkAAAAASUVORK5CYII=';

/**
 * A real JPEG (PHOTO_JPEG) grown to exactly `bytes` bytes with comment segments after its start
 * marker (each at most 65,535 bytes long): the size limit's test input, which also decodes.
 */
export const jpegOfSize = (bytes: number) => {
  const photo = Buffer.from(PHOTO_JPEG.split(',')[1]!, 'base64');
  const segments: Buffer[] = [];
  let missing = bytes - photo.length;
  while (missing > 0) {
    // A segment is its marker (2 bytes), its length (2 bytes, counting themselves) and its text;
    // the last one is never left shorter than 4 bytes.
    const size = missing <= 65_537 || missing - 65_537 >= 4 ? Math.min(missing, 65_537) : missing - 4;
    const segment = Buffer.alloc(size, 0x41);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(size - 2, 2);
    segments.push(segment);
    missing -= size;
  }
  const body = Buffer.concat([photo.subarray(0, 2), ...segments, photo.subarray(2)]);
  return `data:image/jpeg;base64,${body.toString('base64')}`;
};
