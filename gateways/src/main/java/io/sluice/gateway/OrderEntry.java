package io.sluice.gateway;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelScope;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.OrderCommand;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.codec.FixDecimal;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixApplication;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionRejectReason;
import org.agrona.collections.Long2LongHashMap;

import java.util.List;

/**
 * Turns the order messages a session accepted into commands on the gateway's journal: NewOrderSingle (D)
 * into {@link GatewayToEngine#newOrder}, OrderCancelRequest (F) into {@link GatewayToEngine#cancelOrder},
 * OrderCancelReplaceRequest (G) into {@link GatewayToEngine#replaceOrder}, OrderMassCancelRequest (q) into
 * {@link GatewayToEngine#massCancel} (MassCancelRequestType 530 = 1, one instrument, or 7, all; the other FIX 4.4
 * types are answered by {@link MassCancelRefusals}), each with MetaData (this
 * gateway, the next gapless eventId, when the FIX bytes arrived and when the command was written). New orders
 * and replaces carry the session's configured firm (0 for none). Every command carries the message's
 * OnBehalfOfCompID (115) and DeliverToCompID (128), so the engine's reports of it are routed back the same way
 * ({@link ReportDelivery}); like every identifier here they are ShortText, at most 10 characters.
 * A missing or malformed field gets a session Reject (35=3) naming the tag; any other application
 * message a Business Message Reject (35=j). The engine, not the gateway, judges business validity.
 * While the journals' disk is full ({@link GatewaySpace}) new orders and replaces are refused with
 * "journal disk full" ({@link DiskFullRejects}); cancels and mass cancels still go through. The gateway's own mass
 * cancels (cancel-on-disconnect, {@link #cancelOnDisconnect}) take their eventIds from the same gapless sequence.
 */
final class OrderEntry implements FixApplication {
    private static final String UNSUPPORTED = "Unsupported MsgType: this gateway accepts D, F, G and q";
    private static final String MISSING = "Required tag missing";
    private static final String BAD_ID = "Identifier must be 1 to 10 characters of the ShortText alphabet";
    private static final String BAD_CODE = "Value is incorrect (out of range) for this tag";
    private static final String BAD_NUMBER = "Incorrect data format for value";

    private final int gatewayId;
    /** SenderCompID → firm, of the sessions that have one: 0 (none) is the missing value. */
    private final Long2LongHashMap firms = new Long2LongHashMap(0);
    private final GatewayToEngine commands;
    private final GatewaySpace space;
    private final GatewayExecIds execIds;
    private final NewOrder newOrder = new NewOrder();
    private final CancelOrder cancelOrder = new CancelOrder();
    private final ReplaceOrder replaceOrder = new ReplaceOrder();
    private final MassCancel massCancel = new MassCancel();
    private long lastEventId;
    private boolean refused;
    private FixSession session;
    private FixMessage message;

    OrderEntry(final int gatewayId, final List<SessionConfig> sessions, final GatewayToEngine commands,
               final GatewaySpace space, final GatewayExecIds execIds, final long lastEventId) {
        this.gatewayId = gatewayId;
        for (final SessionConfig session : sessions) {
            if (session.firmId() != 0) {
                firms.put(ShortText.parse(session.senderCompId()), session.firmId());
            }
        }
        this.commands = commands;
        this.space = space;
        this.execIds = execIds;
        this.lastEventId = lastEventId;
    }

    /** @return the eventId of the last command written: each session progress record carries it. */
    @Override
    public long lastEventId() {
        return lastEventId;
    }

    @Override
    public void onApplicationMessage(final FixSession session, final FixMessage message) {
        this.session = session;
        this.message = message;
        refused = false;
        switch (message.msgType()) {
            case MsgTypes.NEW_ORDER_SINGLE -> {
                if (!space.takesOrders()) {
                    DiskFullRejects.rejectNewOrder(session, message, execIds);
                    return;
                }
                readTerms(newOrder);
                if (!refused) {
                    stamp(newOrder.metaData());
                    commands.newOrder(newOrder);
                }
            }
            case MsgTypes.ORDER_CANCEL_REQUEST -> {
                cancelOrder.session(session.id()).firm(firms.get(session.id()))
                        .origClOrdId(id(FixTags.ORIG_CL_ORD_ID))
                        .clOrdId(id(FixTags.CL_ORD_ID))
                        .symbol(id(FixTags.SYMBOL))
                        .side(Side.fromFixCode(code(FixTags.SIDE, -1)))
                        .routing(optionalId(FixTags.ON_BEHALF_OF_COMP_ID), optionalId(FixTags.DELIVER_TO_COMP_ID));
                transactTime();
                if (!refused) {
                    stamp(cancelOrder.metaData());
                    commands.cancelOrder(cancelOrder);
                }
            }
            case MsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> {
                if (!space.takesOrders()) {
                    DiskFullRejects.rejectReplace(session, message);
                    return;
                }
                replaceOrder.origClOrdId(id(FixTags.ORIG_CL_ORD_ID));
                readTerms(replaceOrder);
                if (!refused) {
                    stamp(replaceOrder.metaData());
                    commands.replaceOrder(replaceOrder);
                }
            }
            case MsgTypes.ORDER_MASS_CANCEL_REQUEST -> massCancelRequest();
            default -> session.businessReject(message, SessionRejectReason.BUSINESS_UNSUPPORTED_MESSAGE_TYPE,
                    UNSUPPORTED);
        }
    }

    /**
     * Appends the mass cancel the gateway writes by itself for an absent client (cancel-on-disconnect): every resting
     * order of {@code sessionId}, no ClOrdID, no routing; its MetaData's fixReceived is 0, as no client message caused it.
     *
     * @return the eventId it was journaled with
     */
    long cancelOnDisconnect(final long sessionId, final MassCancelCause cause) {
        massCancel.session(sessionId).firm(firms.get(sessionId)).clOrdId(0).scope(MassCancelScope.ALL).symbol(0).side(null).cause(cause)
                .routing(0, 0);
        final MetaData metaData = massCancel.metaData();
        metaData.clearTimestamps();
        metaData.sourceId(gatewayId).eventId(++lastEventId).fixReceived(0).commandWriting(SluiceClock.nowTicks());
        commands.massCancel(massCancel);
        return lastEventId;
    }

    /**
     * OrderMassCancelRequest (q): 530=1 cancels the session's orders in Symbol (55, then required), 530=7 all of them,
     * either narrowed to one Side (54) if given. The other FIX 4.4 types (2 to 6: underlying, product, CFICode,
     * security type, trading session) name nothing Sluice keeps: answered at once by the gateway, nothing journaled.
     */
    private void massCancelRequest() {
        final long clOrdId = id(FixTags.CL_ORD_ID);
        final int type = code(FixTags.MASS_CANCEL_REQUEST_TYPE, -1);
        if (refused) {
            return;
        }
        final MassCancelScope scope = MassCancelScope.fromFixCode(type);
        if (scope == null) {
            MassCancelRefusals.typeNotSupported(session, message);
            return;
        }
        massCancel.session(session.id())
                .firm(firms.get(session.id()))
                .clOrdId(clOrdId)
                .scope(scope)
                .symbol(scope == MassCancelScope.SECURITY ? id(FixTags.SYMBOL) : 0)
                .side(Side.fromFixCode(code(FixTags.SIDE, 0)))
                .cause(MassCancelCause.CLIENT_REQUEST)
                .routing(optionalId(FixTags.ON_BEHALF_OF_COMP_ID), optionalId(FixTags.DELIVER_TO_COMP_ID));
        transactTime();
        if (!refused) {
            stamp(massCancel.metaData());
            commands.massCancel(massCancel);
            session.counters().massCancelRequest();
        }
    }

    private void readTerms(final OrderCommand order) {
        order.session(session.id())
                .firm(firms.get(session.id()))
                .clOrdId(id(FixTags.CL_ORD_ID))
                .account(optionalId(FixTags.ACCOUNT))
                .symbol(id(FixTags.SYMBOL))
                .side(Side.fromFixCode(code(FixTags.SIDE, -1)))
                .routing(optionalId(FixTags.ON_BEHALF_OF_COMP_ID), optionalId(FixTags.DELIVER_TO_COMP_ID));
        transactTime();
        order.orderQty(quantity());
        final OrdType ordType = OrdType.fromFixCode(code(FixTags.ORD_TYPE, -1));
        order.ordType(ordType)
                .timeInForce(TimeInForce.fromFixCode(code(FixTags.TIME_IN_FORCE, TimeInForce.DAY.fixCode())))
                .price(price(ordType == OrdType.LIMIT || ordType == OrdType.STOP_LIMIT));
    }

    private void stamp(final MetaData metaData) {
        metaData.clearTimestamps();
        metaData.sourceId(gatewayId)
                .eventId(++lastEventId)
                .fixReceived(session.receivedTicks())
                .commandWriting(SluiceClock.nowTicks());
    }

    private long id(final int tag) {
        final int index = present(tag);
        if (index < 0) {
            return 0;
        }
        final long id = ShortText.parse(message.buffer(), message.valueOffset(index), message.valueLength(index));
        if (id == ShortText.INVALID) {
            refuse(SessionRejectReason.VALUE_IS_INCORRECT, tag, BAD_ID);
        }
        return id;
    }

    private long optionalId(final int tag) {
        return refused || message.has(tag) ? id(tag) : 0;
    }

    /** @return the one-character value of {@code tag}, {@code absent} if it is optional and missing, or -1. */
    private int code(final int tag, final int absent) {
        if (refused) {
            return -1;
        }
        final long value = message.charValue(tag);
        if (value == FixMessage.ABSENT) {
            if (absent < 0) {
                refuse(SessionRejectReason.REQUIRED_TAG_MISSING, tag, MISSING);
            }
            return absent;
        }
        if (value == FixMessage.INVALID || !validCode(tag, (int) value)) {
            refuse(SessionRejectReason.VALUE_IS_INCORRECT, tag, BAD_CODE);
            return -1;
        }
        return (int) value;
    }

    private static boolean validCode(final int tag, final int code) {
        return switch (tag) {
            case FixTags.SIDE -> Side.fromFixCode(code) != null;
            case FixTags.ORD_TYPE -> OrdType.fromFixCode(code) != null;
            case FixTags.TIME_IN_FORCE -> TimeInForce.fromFixCode(code) != null;
            case FixTags.MASS_CANCEL_REQUEST_TYPE -> code >= '1' && code <= '7';
            default -> false;
        };
    }

    private long quantity() {
        final int index = present(FixTags.ORDER_QTY);
        if (index < 0) {
            return 0;
        }
        final long quantity = FixDecimal.parseQuantity(message.buffer(), message.valueOffset(index),
                message.valueLength(index));
        if (quantity == FixDecimal.INVALID) {
            refuse(SessionRejectReason.INCORRECT_DATA_FORMAT, FixTags.ORDER_QTY, BAD_NUMBER);
            return 0;
        }
        return quantity;
    }

    private long price(final boolean required) {
        if (refused || (!required && !message.has(FixTags.PRICE))) {
            return 0;
        }
        final int index = present(FixTags.PRICE);
        if (index < 0) {
            return 0;
        }
        final long price = FixDecimal.parsePrice(message.buffer(), message.valueOffset(index),
                message.valueLength(index));
        if (price == FixDecimal.INVALID) {
            refuse(SessionRejectReason.INCORRECT_DATA_FORMAT, FixTags.PRICE, BAD_NUMBER);
            return 0;
        }
        return price;
    }

    private void transactTime() {
        if (present(FixTags.TRANSACT_TIME) >= 0 && message.timestampValue(FixTags.TRANSACT_TIME) == FixMessage.INVALID) {
            refuse(SessionRejectReason.INCORRECT_DATA_FORMAT, FixTags.TRANSACT_TIME, BAD_NUMBER);
        }
    }

    /** @return the index of a required tag, or -1 after rejecting the message for its absence (or an earlier refusal). */
    private int present(final int tag) {
        if (refused) {
            return -1;
        }
        final int index = message.indexOf(tag);
        if (index < 0) {
            refuse(SessionRejectReason.REQUIRED_TAG_MISSING, tag, MISSING);
        }
        return index;
    }

    private void refuse(final int reason, final int tag, final String text) {
        if (!refused) {
            refused = true;
            session.reject(message, reason, tag, text);
        }
    }
}
