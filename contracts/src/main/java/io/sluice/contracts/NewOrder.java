package io.sluice.contracts;

/** A new order, from FIX NewOrderSingle (35=D). */
public final class NewOrder extends OrderCommand {
}
