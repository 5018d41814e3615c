
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;

/**
 * Build-time generator of the gateway's FIX 4.4 data dictionary (run by gateway-codec/pom.xml in generate-sources as a
 * single-file Java program, JDK only). It reads QuickFIX/J's FIX44.xml (BSD licensed, from the
 * quickfixj-messages-all jar on its class path) and writes io.sluice.gateway.codec.Fix44Spec: one compact line per
 * field (number, type, enumerated values or the data field a length field counts) and per message (MsgType,
 * category, body structure), plus the header and trailer. Structures are space-separated tokens: a tag, "!" after
 * it if required, "{" after a NumInGroup tag to open its group's members, "}" to close it. Components are expanded
 * in place; a field is required only if it and every component around it are. FixDictionary turns these lines
 * into tables and bit sets when the gateway starts; nothing of the dictionary is typed by hand.
 * <p>
 * Usage: java FixDictionaryGenerator.java &lt;resource name, e.g. FIX44.xml&gt; &lt;generated sources root&gt;
 */
public final class FixDictionaryGenerator {
    private final Map<String, Element> fields = new HashMap<>();
    private final Map<String, Element> components = new HashMap<>();

    public static void main(final String[] args) throws Exception {
        final Document spec;
        try (InputStream in = FixDictionaryGenerator.class.getClassLoader().getResourceAsStream(args[0])) {
            if (in == null) {
                throw new IllegalStateException(args[0] + " is not on the class path (quickfixj-messages-all)");
            }
            spec = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
        final Path out = Path.of(args[1], "io", "sluice", "gateway", "codec", "Fix44Spec.java");
        Files.createDirectories(out.getParent());
        Files.writeString(out, new FixDictionaryGenerator().generate(spec.getDocumentElement(), args[0]),
                StandardCharsets.UTF_8);
    }

    private String generate(final Element fix, final String source) {
        for (final Element field : children(child(fix, "fields"), "field")) {
            fields.put(field.getAttribute("name"), field);
        }
        for (final Element component : children(child(fix, "components"), "component")) {
            components.put(component.getAttribute("name"), component);
        }
        final StringBuilder java = new StringBuilder(400_000);
        java.append("package io.sluice.gateway.codec;\n\n")
                .append("/**\n * The FIX 4.4 data dictionary as compact lines, generated at build time from QuickFIX/J's ")
                .append(source).append(" (BSD licensed)\n * by gateway-codec/src/build/FixDictionaryGenerator.java: ")
                .append("do not edit. {@link FixDictionary} reads it.\n */\n")
                .append("final class Fix44Spec {\n");
        java.append("    /** \"tag TYPE enum...\" or, for a length field, \"tag LENGTH >dataTag\". */\n");
        java.append("    static final String[] FIELDS = {\n");
        for (final Element field : children(child(fix, "fields"), "field")) {
            final StringBuilder line = new StringBuilder();
            line.append(field.getAttribute("number")).append(' ').append(field.getAttribute("type"));
            for (final Element value : children(field, "value")) {
                line.append(' ').append(value.getAttribute("enum"));
            }
            if ("DATA".equals(field.getAttribute("type"))) {
                // A data field's byte count is the length field named after it (RawData: RawDataLength, XmlData: XmlDataLen).
                continue;
            }
            if ("LENGTH".equals(field.getAttribute("type"))) {
                final String name = field.getAttribute("name");
                final String base = name.endsWith("Length") ? name.substring(0, name.length() - 6)
                        : name.endsWith("Len") ? name.substring(0, name.length() - 3) : null;
                final Element data = base == null ? null : fields.get(base);
                if (data != null && "DATA".equals(data.getAttribute("type"))) {
                    line.append(" >").append(data.getAttribute("number"));
                }
            }
            java.append("        \"").append(line).append("\",\n");
        }
        for (final Element field : children(child(fix, "fields"), "field")) {
            if ("DATA".equals(field.getAttribute("type"))) {
                java.append("        \"").append(field.getAttribute("number")).append(" DATA\",\n");
            }
        }
        java.append("    };\n\n");
        java.append("    /** The standard header, in order. */\n");
        java.append("    static final String HEADER = \"").append(structure(child(fix, "header"), true)).append("\";\n\n");
        java.append("    /** The standard trailer, in order. */\n");
        java.append("    static final String TRAILER = \"").append(structure(child(fix, "trailer"), true)).append("\";\n\n");
        java.append("    /** \"MsgType category body...\", category admin or app. */\n");
        java.append("    static final String[] MESSAGES = {\n");
        for (final Element message : children(child(fix, "messages"), "message")) {
            java.append("        \"").append(message.getAttribute("msgtype")).append(' ')
                    .append(message.getAttribute("msgcat")).append(' ').append(structure(message, true))
                    .append("\",\n");
        }
        java.append("    };\n\n    private Fix44Spec() {\n    }\n}\n");
        return java.toString();
    }

    private String structure(final Element parent, final boolean required) {
        final List<String> tokens = new ArrayList<>();
        tokens(parent, required, tokens);
        return String.join(" ", tokens);
    }

    private void tokens(final Element parent, final boolean required, final List<String> tokens) {
        for (final Element element : children(parent, null)) {
            final boolean isRequired = required && "Y".equals(element.getAttribute("required"));
            switch (element.getTagName()) {
                case "field" -> tokens.add(number(element.getAttribute("name")) + (isRequired ? "!" : ""));
                case "component" -> tokens(components.get(element.getAttribute("name")), isRequired, tokens);
                case "group" -> {
                    tokens.add(number(element.getAttribute("name")) + (isRequired ? "!{" : "{"));
                    // Members are required within an instance as the dictionary says, whether or not the group is.
                    tokens(element, true, tokens);
                    tokens.add("}");
                }
                default -> throw new IllegalStateException("unexpected <" + element.getTagName() + ">");
            }
        }
    }

    private String number(final String name) {
        final Element field = fields.get(name);
        if (field == null) {
            throw new IllegalStateException("field " + name + " is not defined in <fields>");
        }
        return field.getAttribute("number");
    }

    private static Element child(final Element parent, final String name) {
        return children(parent, name).getFirst();
    }

    private static List<Element> children(final Element parent, final String name) {
        final List<Element> children = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && (name == null || name.equals(element.getTagName()))) {
                children.add(element);
            }
        }
        return children;
    }
}
