package io.sluice.bench.fix;

import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * One FIX message received by the load client, framed and scanned in place, without allocating: the few
 * fields a load client acts on are captured as primitives (absent numbers read as -1, absent chars as 0).
 * It trusts its peer's BodyLength and skips the CheckSum; it is a measuring client, not an acceptor.
 */
public final class InboundMessage {
    private static final int BEGIN_LENGTH = "8=FIX.4.4\u00019=".length();

    private DirectBuffer buffer;
    private int msgType;
    private long msgSeqNum;
    private boolean possDup;
    private boolean gapFill;
    private long newSeqNo;
    private long beginSeqNo;
    private long refSeqNum;
    private long clOrdId;
    private char execType;
    private char ordStatus;
    private long leavesQty;
    private long lastQty;
    private int textOffset;
    private int textLength;
    private int testReqIdOffset;
    private int testReqIdLength;

    /**
     * @return the length of the complete message starting at {@code offset}, or 0 if more bytes are needed
     * @throws IllegalStateException if the bytes are not a FIX 4.4 message
     */
    static int frameLength(final DirectBuffer buffer, final int offset, final int available) {
        if (available < BEGIN_LENGTH + 2) {
            return 0;
        }
        if (buffer.getByte(offset) != '8' || buffer.getByte(offset + 1) != '=') {
            throw new IllegalStateException("received bytes that are not a FIX message: "
                    + buffer.getStringWithoutLengthAscii(offset, Math.min(available, 40)));
        }
        int position = offset + BEGIN_LENGTH;
        int bodyLength = 0;
        final int end = offset + available;
        while (position < end) {
            final byte b = buffer.getByte(position++);
            if (b == FixMessageWriter.SOH) {
                final int length = position - offset + bodyLength + 7;
                return length <= available ? length : 0;
            }
            bodyLength = bodyLength * 10 + (b - '0');
        }
        return 0;
    }

    /** Scans the message of {@code length} bytes at {@code offset}. */
    void wrap(final DirectBuffer buffer, final int offset, final int length) {
        this.buffer = buffer;
        msgType = 0;
        msgSeqNum = -1;
        possDup = false;
        gapFill = false;
        newSeqNo = -1;
        beginSeqNo = -1;
        refSeqNum = -1;
        clOrdId = -1;
        execType = 0;
        ordStatus = 0;
        leavesQty = -1;
        lastQty = -1;
        textLength = 0;
        testReqIdLength = 0;
        final int end = offset + length;
        int position = offset;
        while (position < end) {
            int tag = 0;
            byte b;
            while ((b = buffer.getByte(position++)) != '=') {
                tag = tag * 10 + (b - '0');
            }
            final int valueStart = position;
            while (buffer.getByte(position) != FixMessageWriter.SOH) {
                position++;
            }
            final int valueLength = position - valueStart;
            position++;
            capture(tag, valueStart, valueLength);
        }
    }

    private void capture(final int tag, final int offset, final int length) {
        switch (tag) {
            case 35 -> msgType = length == 1 ? buffer.getByte(offset) : buffer.getByte(offset) << 8 | buffer.getByte(offset + 1);
            case 34 -> msgSeqNum = number(offset, length);
            case 43 -> possDup = buffer.getByte(offset) == 'Y';
            case 123 -> gapFill = buffer.getByte(offset) == 'Y';
            case 36 -> newSeqNo = number(offset, length);
            case 7 -> beginSeqNo = number(offset, length);
            case 45 -> refSeqNum = number(offset, length);
            case 11 -> clOrdId = number(offset, length);
            case 150 -> execType = (char) buffer.getByte(offset);
            case 39 -> ordStatus = (char) buffer.getByte(offset);
            case 151 -> leavesQty = number(offset, length);
            case 32 -> lastQty = number(offset, length);
            case 58 -> {
                textOffset = offset;
                textLength = length;
            }
            case 112 -> {
                testReqIdOffset = offset;
                testReqIdLength = length;
            }
            default -> {
            }
        }
    }

    /** @return the integer part of a numeric value, or -1 if it does not start with a digit. */
    private long number(final int offset, final int length) {
        long value = 0;
        int i = 0;
        for (; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                break;
            }
            value = value * 10 + (b - '0');
        }
        return i == 0 ? -1 : value;
    }

    /** @return MsgType: one char, or two chars packed as {@code first << 8 | second}. */
    public int msgType() {
        return msgType;
    }

    public long msgSeqNum() {
        return msgSeqNum;
    }

    public boolean possDup() {
        return possDup;
    }

    public boolean gapFill() {
        return gapFill;
    }

    public long newSeqNo() {
        return newSeqNo;
    }

    public long beginSeqNo() {
        return beginSeqNo;
    }

    /** @return RefSeqNum (45) of a Reject: the sequence number of the rejected message, or -1. */
    public long refSeqNum() {
        return refSeqNum;
    }

    /** @return ClOrdID (11) read as a decimal number (the load client's ClOrdIDs are), or -1. */
    public long clOrdId() {
        return clOrdId;
    }

    public char execType() {
        return execType;
    }

    public char ordStatus() {
        return ordStatus;
    }

    public long leavesQty() {
        return leavesQty;
    }

    public long lastQty() {
        return lastQty;
    }

    /** @return true if OrdStatus says the order is done: filled, canceled, rejected or expired. */
    public boolean orderDone() {
        return ordStatus == '2' || ordStatus == '4' || ordStatus == '8' || ordStatus == 'C';
    }

    /** Copies TestReqID (112) into {@code into}, for the Heartbeat that answers a TestRequest. */
    int testReqId(final byte[] into) {
        final int length = Math.min(testReqIdLength, into.length);
        buffer.getBytes(testReqIdOffset, into, 0, length);
        return length;
    }

    /** @return Text (58), for error messages only: allocates. */
    public String text() {
        if (textLength == 0) {
            return "";
        }
        final byte[] bytes = new byte[textLength];
        buffer.getBytes(textOffset, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
