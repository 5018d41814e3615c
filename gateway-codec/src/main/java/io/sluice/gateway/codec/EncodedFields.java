package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A run of FIX fields encoded once and pasted into many messages, with its byte sum, so each message's CheckSum skips
 * reading it again. Write it with the {@link FixEncoder} that {@link #start} returns, close it with {@link #end}, paste
 * it with {@link FixEncoder#encodedFields}. Nothing is allocated after construction.
 * <pre>{@code
 * shared.start().longField(FixTags.RPT_SEQ, rptSeq).longField(FixTags.NO_MD_ENTRIES, 1) ...;
 * shared.end();
 * session.startApplicationMessage(type).field(FixTags.MD_REQ_ID, reqId).encodedFields(shared) ...
 * }</pre>
 */
public final class EncodedFields {
    private final FixEncoder encoder;
    private int length;
    private int byteSum;

    /** @param capacity the most bytes the fields take */
    public EncodedFields(final int capacity) {
        this.encoder = new FixEncoder(new UnsafeBuffer(new byte[capacity]));
    }

    /** Begins the fields afresh; @return the encoder to add them with */
    public FixEncoder start() {
        length = 0;
        byteSum = 0;
        return encoder.startFields();
    }

    /** Ends the fields begun by {@link #start}: their length and byte sum are taken. */
    public EncodedFields end() {
        length = encoder.position();
        byteSum = FixFramer.checksum(encoder.buffer(), 0, length);
        return this;
    }

    public DirectBuffer buffer() {
        return encoder.buffer();
    }

    /** @return the fields' length in bytes, as of {@link #end} */
    public int length() {
        return length;
    }

    /** @return the sum of the fields' bytes modulo 256, as the CheckSum counts them */
    public int byteSum() {
        return byteSum;
    }
}
