"""The independent S3 client for the interop checks: boto3, not our code.

Usage: boto3_peer.py get|put ENDPOINT REGION BUCKET KEY FILE
  get: downloads BUCKET/KEY into FILE;  put: uploads FILE to BUCKET/KEY (multipart when large);
  etag: writes the object's ETag into FILE (a multipart object's ETag ends in "-<parts>").
Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.
"""
import sys

import boto3
from botocore.config import Config

op, endpoint, region, bucket, key, path = sys.argv[1:7]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name=region,
                  config=Config(s3={"addressing_style": "path"}))
if op == "get":
    s3.download_file(bucket, key, path)
elif op == "put":
    s3.upload_file(path, bucket, key)
elif op == "etag":
    with open(path, "w") as out:
        out.write(s3.head_object(Bucket=bucket, Key=key)["ETag"])
else:
    sys.exit(f"unknown operation {op}")
