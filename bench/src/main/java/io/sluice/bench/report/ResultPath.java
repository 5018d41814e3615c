package io.sluice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Names one value inside a parsed result, the way the report's specifications point at figures. Keys are joined by dots
 * ({@code targets.Sluice TCP.roundTrip.p99Us}); an array element is named either by index ({@code rows[0]}) or by the
 * fields that identify it ({@code rows[variant=contract,targetRate=0].latency}). Keys may hold spaces
 * and slashes, not dots or brackets.
 */
public final class ResultPath {
    private final String text;
    private final List<Step> steps;

    private ResultPath(final String text, final List<Step> steps) {
        this.text = text;
        this.steps = steps;
    }

    /** @return the path {@code text} describes */
    public static ResultPath of(final String text) {
        final List<Step> steps = new ArrayList<>();
        for (final String part : text.split("\\.")) {
            final int bracket = part.indexOf('[');
            if (bracket < 0) {
                steps.add(new Step(part, null));
            } else if (!part.endsWith("]")) {
                throw new IllegalArgumentException("result path '" + text + "': '" + part + "' lacks its closing ']'");
            } else {
                steps.add(new Step(part.substring(0, bracket), part.substring(bracket + 1, part.length() - 1)));
            }
        }
        return new ResultPath(text, List.copyOf(steps));
    }

    /** @return the value this path names in {@code root}, or null when any step is missing */
    public Object find(final Object root) {
        Object at = root;
        for (final Step step : steps) {
            at = step.apply(at);
            if (at == null) {
                return null;
            }
        }
        return at;
    }

    /** @return the number this path names in {@code root}, or null when it is missing or not a number */
    public Double number(final Object root) {
        return find(root) instanceof Double number ? number : null;
    }

    @Override
    public String toString() {
        return text;
    }

    private record Step(String key, String selector) {
        Object apply(final Object at) {
            final Object value = key.isEmpty() ? at : at instanceof Map<?, ?> map ? map.get(key) : null;
            if (selector == null || value == null) {
                return value;
            }
            if (!(value instanceof List<?> list)) {
                return null;
            }
            if (selector.chars().allMatch(Character::isDigit)) {
                final int index = Integer.parseInt(selector);
                return index < list.size() ? list.get(index) : null;
            }
            for (final Object element : list) {
                if (element instanceof Map<?, ?> fields && matches(fields)) {
                    return element;
                }
            }
            return null;
        }

        private boolean matches(final Map<?, ?> fields) {
            for (final String condition : selector.split(",")) {
                final int equals = condition.indexOf('=');
                if (equals < 0) {
                    throw new IllegalArgumentException("result path selector '" + selector + "' needs key=value");
                }
                final Object actual = fields.get(condition.substring(0, equals).trim());
                if (actual == null || !ValueText.key(actual).equals(condition.substring(equals + 1).trim())) {
                    return false;
                }
            }
            return true;
        }
    }
}
