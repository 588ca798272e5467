{$api|@json_encode}
