<?php
// The oracle for xmltojson. Reads one JSON request per line on stdin: {"xml": "..."} or
// {"b64": "<base64 of raw bytes>"}, and
// writes one JSON line per request:
//   {"native": json_encode(simplexml_load_string($xml)) or false,
//    "ref0":   the reference conversion below with the namespace filter on (must equal native),
//    "ref1":   the same conversion with the namespace filter off (convert_namespace=1)}
//
// The reference conversion is a line-by-line port of ext/simplexml's sxe_get_prop_hash()
// and _get_base_node_value() (PHP 8.2) onto the DOM view of the same libxml tree
// (dom_import_simplexml), with the namespace test as a switch. Because ref0 is checked against
// native on every document, ref1 differs from PHP's own conversion only by that switch.
error_reporting(E_ALL);
ini_set('display_errors', '0');
ini_set('serialize_precision', '-1');
libxml_use_internal_errors(true);

function sx_is_blank(DOMNode $n): bool {
    if ($n->nodeType !== XML_TEXT_NODE && $n->nodeType !== XML_CDATA_SECTION_NODE) return false;
    return strspn($n->nodeValue, " \t\n\r") === strlen($n->nodeValue);
}

// match_ns(sxe, node, NULL, 0): no namespace, or a namespace without prefix (a default one).
function sx_matches(DOMNode $n, bool $all): bool {
    return $all || $n->namespaceURI === null || $n->prefix === '' || $n->prefix === null;
}

// libxml's node->name for the node kinds SimpleXML turns into properties (CDATA has none).
function sx_name(DOMNode $n): ?string {
    switch ($n->nodeType) {
        case XML_ELEMENT_NODE: return $n->localName;
        case XML_COMMENT_NODE: return 'comment';
        case XML_PI_NODE: return $n->target;
        case XML_ENTITY_REF_NODE: return $n->nodeName;
        default: return null;
    }
}

function sx_add(array &$rv, string $name, $value): void {
    if (array_key_exists($name, $rv)) {
        if (is_array($rv[$name])) $rv[$name][] = $value;
        else $rv[$name] = [$rv[$name], $value];
    } else {
        $rv[$name] = $value;
    }
}

function sx_base_value(DOMNode $n, bool $all) {
    $first = $n->firstChild;
    if ($first !== null && $first->nodeType === XML_TEXT_NODE && !sx_is_blank($first)) {
        $s = '';
        foreach ($n->childNodes as $c) {
            if ($c->nodeType === XML_TEXT_NODE || $c->nodeType === XML_CDATA_SECTION_NODE) $s .= $c->nodeValue;
        }
        return $s;
    }
    return (object) sx_props($n, $all);
}

function sx_props(DOMNode $node, bool $all): array {
    $rv = [];
    if ($node instanceof DOMElement) {
        $attrs = null;
        foreach ($node->attributes as $a) {
            if (!sx_matches($a, $all)) continue;
            $attrs ??= [];
            $attrs[$a->localName] = $a->value;
        }
        if ($attrs !== null) $rv['@attributes'] = $attrs;
    }
    foreach ($node->childNodes ?? [] as $c) {
        if ($c->nodeType === XML_TEXT_NODE) {
            if ($c->previousSibling === null && $c->nextSibling === null && !sx_is_blank($c) && $c->nodeValue !== '') {
                $rv[] = $c->nodeValue;
            }
            continue;
        }
        if ($c->nodeType === XML_ELEMENT_NODE && !sx_matches($c, $all)) continue;
        $name = sx_name($c);
        if ($name === null) continue;
        sx_add($rv, $name, sx_base_value($c, $all));
    }
    return $rv;
}

while (($line = fgets(STDIN)) !== false) {
    $req = json_decode($line, true);
    $sx = simplexml_load_string(isset($req['b64']) ? base64_decode($req['b64']) : $req['xml']);
    libxml_clear_errors();
    if ($sx === false) {
        $out = ['native' => false, 'ref0' => false, 'ref1' => false];
    } else {
        $dom = dom_import_simplexml($sx);
        $out = [
            'native' => json_encode($sx),
            'ref0' => json_encode((object) sx_props($dom, false)),
            'ref1' => json_encode((object) sx_props($dom, true)),
        ];
    }
    echo json_encode($out), "\n";
}
